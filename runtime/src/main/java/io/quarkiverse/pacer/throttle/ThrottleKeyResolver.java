package io.quarkiverse.pacer.throttle;

import jakarta.interceptor.InvocationContext;

/**
 * Computes the throttling key of a {@link Throttled} invocation, for keys that are not simply method arguments.
 * Implementations are CDI beans (for example {@code @ApplicationScoped} or {@code @Singleton}) selected with
 * {@link Throttled#key()}; they run on the caller's thread, before the decision, and must not block.
 * <p>
 * Two resolvers are built in: {@link PrincipalKeyResolver} (the caller's principal name) and
 * {@link ClientAddressKeyResolver} (the HTTP client's address, when Quarkus Vert.x HTTP is present).
 *
 * <pre>
 * {@code
 * &#64;ApplicationScoped
 * public class ApiKeyResolver implements ThrottleKeyResolver {
 *     &#64;Inject
 *     HttpHeaders headers;
 *
 *     &#64;Override
 *     public String resolve(InvocationContext invocation) {
 *         return headers.getHeaderString("X-Api-Key");
 *     }
 * }
 *
 * &#64;Throttled(limit = 1000, window = "1h", key = ApiKeyResolver.class)
 * public Report report() { ... }
 * }
 * </pre>
 */
public interface ThrottleKeyResolver {

    /**
     * Returns the key for this invocation; {@code null} is a key of its own (every caller without a key shares it).
     *
     * @param invocation the intercepted invocation (method, parameters, target)
     * @return the key, any string; long keys are hashed by Pacer
     */
    String resolve(InvocationContext invocation);
}
