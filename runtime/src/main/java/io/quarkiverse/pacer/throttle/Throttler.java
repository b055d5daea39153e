package io.quarkiverse.pacer.throttle;

import java.util.Map;

/**
 * Programmatic, blocking access to Pacer's rate limits, for code paths where an annotation does not fit. Inject it
 * like any bean; calls block the current thread (never call it on an event-loop thread: use
 * {@link ReactiveThrottler} there) for at most {@code quarkus.pacer.throttle.timeout}.
 * <p>
 * The policy must be declared by a {@link Throttled} annotation somewhere in the application or configured with
 * {@code quarkus.pacer.throttle."<policy>".limit} and {@code .window}.
 *
 * <pre>{@code
 * &#64;Inject
 * Throttler throttler;
 *
 * void export(String tenant) {
 *     ThrottleDecision decision = throttler.acquire("exports", tenant, 1);
 *     if (!decision.allowed()) {
 *         throw new ThrottledException(List.of(decision));
 *     }
 *     ...
 * }
 * }</pre>
 *
 * When Redis is unavailable or slower than the time budget, the outcome follows
 * {@code quarkus.pacer.throttle.on-redis-failure}: an allowing or rejecting decision, never a hang.
 */
public interface Throttler {

    /**
     * Takes {@code cost} permits of {@code policy} for {@code key} if available. Rejected attempts consume nothing.
     * For a {@link Algorithm#CONCURRENCY} policy the permits are held as a lease that expires after the policy's
     * window (there is no release through this method: use {@link #acquirePermit} to hold and release one).
     *
     * @param policy a known policy name
     * @param key the key; {@code null} means the policy's global key
     * @param cost permits to take, positive
     * @return the decision; {@link ThrottleDecision#allowed()} tells whether the permits were taken
     * @throws IllegalArgumentException for an unknown policy or a non-positive cost
     */
    ThrottleDecision acquire(String policy, String key, int cost);

    /**
     * Takes one permit: {@code acquire(policy, key, 1)}.
     */
    default ThrottleDecision acquire(String policy, String key) {
        return acquire(policy, key, 1);
    }

    /**
     * Takes one permit of a {@link Algorithm#CONCURRENCY} policy and holds it until {@link ThrottlePermit#close()}:
     * its lease is renewed meanwhile, and it carries a fencing token. With limit 1 this is a distributed lock.
     *
     * <pre>{@code
     * try (ThrottlePermit permit = throttler.acquirePermit("nightly-report", null)) {
     *     report.run(permit.fencingToken());
     * }
     * }</pre>
     *
     * @param policy a known {@code CONCURRENCY} policy
     * @param key the key; {@code null} means the policy's global key
     * @return the permit, held until closed
     * @throws ThrottledException when no permit is free (with the decision and its retry-after)
     * @throws IllegalArgumentException for an unknown policy or one that is not {@code CONCURRENCY}
     */
    ThrottlePermit acquirePermit(String policy, String key);

    /**
     * Tells whether one permit would be granted now, without consuming anything.
     */
    ThrottleDecision peek(String policy, String key);

    /**
     * Forgets all state of {@code policy} for {@code key}: the next call starts from full capacity.
     */
    void reset(String policy, String key);

    /**
     * Overrides settings of {@code policy} on every instance, for every key, until {@link #clearOverride}: stored in
     * Redis (so it survives restarts) and announced to every instance, which enforces it within a second. It replaces
     * an earlier override of the policy as a whole. See {@link ThrottleOverride} for the precedence.
     *
     * <pre>{@code
     * throttler.override("search", ThrottleOverride.of().withLimit(10));
     * }</pre>
     *
     * @throws IllegalArgumentException for an unknown policy, or settings the policy cannot take (a limit below the
     *         cost of one of its methods, ...)
     */
    void override(String policy, ThrottleOverride override);

    /**
     * Removes the runtime override of {@code policy} on every instance (within a second); nothing happens when there
     * is none.
     *
     * @throws IllegalArgumentException for an unknown policy
     */
    void clearOverride(String policy);

    /** The runtime overrides in force on this instance, by policy name. */
    Map<String, ThrottleOverride> overrides();
}
