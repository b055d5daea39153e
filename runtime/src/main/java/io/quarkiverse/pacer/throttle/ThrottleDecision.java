package io.quarkiverse.pacer.throttle;

import java.time.Duration;
import java.util.List;

/**
 * The outcome of one policy for one key, as computed atomically in Redis.
 * <p>
 * Durations are rounded up to whole microseconds and are never early: retrying after {@link #retryAfter()} can
 * succeed (unless other callers take the permits first).
 *
 * <pre>{@code
 * ThrottleDecision decision = throttler.acquire("exports", tenantId, 1);
 * if (!decision.allowed()) {
 *     return Response.status(429).header("Retry-After", decision.retryAfter().toSeconds() + 1).build();
 * }
 * // or let Pacer throw (and Quarkus REST answer 429): throttler.check("exports", tenantId)
 * }</pre>
 *
 * @param allowed whether the permits were granted (for a shadow policy: whether they would have been)
 * @param limit the policy's limit ({@code limit} permits per window, or calls in flight for
 *        {@link Algorithm#CONCURRENCY})
 * @param remaining permits left right after this decision (never negative)
 * @param retryAfter how long until a call of the same cost can succeed; {@link Duration#ZERO} when allowed
 * @param resetAfter how long until the policy's state for this key is back to full capacity
 * @param policy the policy name
 * @param key the throttling key (as encoded by Pacer; the empty string for the global key)
 */
public record ThrottleDecision(boolean allowed, long limit, long remaining, Duration retryAfter, Duration resetAfter,
        String policy, String key) {

    /**
     * Returns this decision when it allowed the call, else throws the {@link ThrottledException} an annotated method
     * would throw: with Quarkus REST, a {@code 429} response with {@code Retry-After}.
     *
     * <pre>{@code
     * int remaining = throttler.acquire("exports", tenant).orThrow().remaining();
     * }</pre>
     *
     * @return this decision, when {@link #allowed()}
     * @throws ThrottledException when this decision rejected the call
     */
    public ThrottleDecision orThrow() {
        if (!allowed) {
            throw new ThrottledException(List.of(this));
        }
        return this;
    }
}
