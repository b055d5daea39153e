package io.quarkiverse.pacer.throttle;

import jakarta.inject.Singleton;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.runtime.throttle.http.HttpClientAddress;

// @formatter:off
/**
 * A built-in {@link ThrottleKeyResolver}: the address of the HTTP client making the current request (the remote host
 * as Vert.x sees it, which honours {@code quarkus.http.proxy.*} forwarding settings). Requires Quarkus Vert.x HTTP
 * (for example through Quarkus REST); using it without fails the build. Calls outside an HTTP request share the
 * {@code null} key.
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
public class ClientAddressKeyResolver implements ThrottleKeyResolver {

    @Override
    public String resolve(InvocationContext invocation) {
        return HttpClientAddress.current();
    }
}
