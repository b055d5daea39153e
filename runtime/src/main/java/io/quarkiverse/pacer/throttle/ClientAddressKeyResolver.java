package io.quarkiverse.pacer.throttle;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.throttle.http.CurrentHttpRequest;
import io.vertx.core.http.HttpServerRequest;

// @formatter:off
/**
 * A built-in {@link RequestKeyResolver}: the address of the HTTP client making the request (the remote host as Vert.x
 * sees it, which honours {@code quarkus.http.proxy.*} forwarding settings). Requires Quarkus Vert.x HTTP (for example
 * through Quarkus REST); using it without fails the build. Calls outside an HTTP request share the {@code null} key.
 *
 * <pre>{@code
 * @Throttled(limit = 20, window = "1s", key = ClientAddressKeyResolver.class)
 * @GET
 * public String hello() {
 *     return "hello";
 * }
 * }</pre>
 */
// @formatter:on
@Singleton
public class ClientAddressKeyResolver implements RequestKeyResolver {

    /** Creates the resolver; CDI does, for {@code key = ClientAddressKeyResolver.class}. */
    public ClientAddressKeyResolver() {
    }

    @Override
    public String resolve(HttpServerRequest request) {
        return CurrentHttpRequest.clientAddress(request);
    }
}
