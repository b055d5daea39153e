package io.quarkiverse.pacer.throttle;

import jakarta.interceptor.InvocationContext;

// @formatter:off
/**
 * Computes the throttling key of a {@link Throttled} invocation, for keys that are not simply method arguments.
 * Implementations are CDI beans (for example {@code @ApplicationScoped} or {@code @Singleton}) selected with
 * {@link Throttled#key()}; they run on the caller's thread, before the decision, and must not block.
 * <p>
 * Two resolvers are built in: {@link PrincipalKeyResolver} (the caller's principal name) and
 * {@link ClientAddressKeyResolver} (the HTTP client's address, when Quarkus Vert.x HTTP is present). A key that comes
 * from the HTTP request alone is better computed by a {@link RequestKeyResolver}: a Quarkus REST endpoint keyed by one
 * is decided before its method is dispatched to a worker thread, where this interface's resolvers run with the method
 * call.
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class ApiKeyResolver implements ThrottleKeyResolver {
 *     @Inject
 *     HttpHeaders headers;
 *
 *     @Override
 *     public String resolve(InvocationContext invocation) {
 *         return headers.getHeaderString("X-Api-Key");
 *     }
 * }
 *
 * // on a bean method
 * @Throttled(limit = 1000, window = "1h", key = ApiKeyResolver.class)
 * public Report report() {
 *     return reports.build();
 * }
 * }</pre>
 */
// @formatter:on
public interface ThrottleKeyResolver {

    /**
     * Returns the key for this invocation; {@code null} is a key of its own (every caller without a key shares it).
     *
     * @param invocation the intercepted invocation (method, parameters, target)
     * @return the key, any string; long keys are hashed by Pacer
     */
    String resolve(InvocationContext invocation);
}
