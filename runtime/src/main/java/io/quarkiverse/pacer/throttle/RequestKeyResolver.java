package io.quarkiverse.pacer.throttle;

import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.runtime.throttle.http.CurrentHttpRequest;
import io.vertx.core.http.HttpServerRequest;

// @formatter:off
/**
 * A {@link ThrottleKeyResolver} that computes the key from the HTTP request alone: its headers, path, query
 * parameters, cookies or client address, never the method's arguments or its body. Because the request carries the
 * key, a Quarkus REST endpoint using such a resolver is decided before its method is dispatched: on the HTTP event
 * loop, so a rejected request never occupies a worker thread. On any other {@link Throttled} method (a CDI bean called
 * while a request is served) it reads the current request, and calls outside an HTTP request share the {@code null}
 * key.
 * <p>
 * Implementations are CDI beans (for example {@code @ApplicationScoped} or {@code @Singleton}) selected with
 * {@link Throttled#key()}. {@link #resolve(HttpServerRequest)} may run on an event-loop thread, before the request's
 * body is read: it must not block and must not read the body. Requires Quarkus Vert.x HTTP (for example through
 * Quarkus REST); a resolver of this type in an application without it fails the build.
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class ApiKeyResolver implements RequestKeyResolver {
 *     @Override
 *     public String resolve(HttpServerRequest request) {
 *         return request.getHeader("X-Api-Key");
 *     }
 * }
 *
 * // on a REST resource method: decided before a worker thread is taken
 * @GET
 * @Path("/reports")
 * @Throttled(limit = 1000, window = "1h", key = ApiKeyResolver.class)
 * public Report report() {
 *     return reports.build();
 * }
 * }</pre>
 */
// @formatter:on
public interface RequestKeyResolver extends ThrottleKeyResolver {

    /**
     * Returns the key for this request; {@code null} is a key of its own (every request without a key shares it).
     *
     * @param request the HTTP request being served (behind a proxy, with the forwarding Quarkus is configured for)
     * @return the key, any string; long keys are hashed by Pacer
     */
    String resolve(HttpServerRequest request);

    /**
     * Resolves the key from the request being served, so that every method keyed by this resolver gets the same key
     * for the same request; not meant to be overridden.
     *
     * @param invocation the intercepted invocation, not read
     * @return {@link #resolve(HttpServerRequest)} of the current request, or {@code null} outside an HTTP request
     */
    @Override
    default String resolve(InvocationContext invocation) {
        HttpServerRequest request = CurrentHttpRequest.get();
        return request == null ? null : resolve(request);
    }
}
