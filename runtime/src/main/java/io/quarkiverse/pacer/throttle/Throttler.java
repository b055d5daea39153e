package io.quarkiverse.pacer.throttle;

import java.util.Map;

// @formatter:off
/**
 * Programmatic, blocking access to Pacer's rate limits, for code paths where an annotation does not fit. Inject it
 * like any bean; calls block the current thread (never call it on an event-loop thread: use
 * {@link ReactiveThrottler} there) for at most {@code quarkus.pacer.throttle.timeout}.
 * <p>
 * The policy must be declared by a {@link Throttled} annotation somewhere in the application or configured with
 * {@code quarkus.pacer.throttle."<policy>".limit} and {@code .window}.
 *
 * <pre>{@code
 * @Inject
 * Throttler throttler;
 *
 * void export(String tenant) {
 *     throttler.check("exports", tenant); // throws ThrottledException (429 with Quarkus REST) when over the limit
 *     exporter.run(tenant);
 * }
 * }</pre>
 *
 * <h2>Keys</h2>
 * A key is one value (a {@code String}, or any object by its {@code toString()}), addressed exactly as a single
 * {@link ThrottleKey} parameter or a {@link ThrottleKeyResolver} with that value; a {@link CompositeKey} addresses the
 * key of several {@code @ThrottleKey} parameters; {@code null} is the policy's global key (the one of methods without
 * key parameters).
 *
 * <h2>Failures</h2>
 * When Redis is unavailable or slower than the time budget, decisions ({@code acquire}, {@code check}, {@code peek})
 * follow {@code quarkus.pacer.throttle.on-redis-failure}: an allowing or rejecting decision, never a hang. The other
 * calls fail with {@code io.quarkiverse.pacer.delay.PacerRedisException} (shared by all of Pacer's APIs).
 */
// @formatter:on
public interface Throttler {

    /**
     * Takes {@code cost} permits of {@code policy} for {@code key} if available. Rejected attempts consume nothing.
     * For a {@link Algorithm#CONCURRENCY} policy the permits are held as a lease that expires after the policy's
     * window (there is no release through this method: use {@link #acquirePermit} to hold and release one).
     *
     * <pre>{@code
     * ThrottleDecision decision = throttler.acquire("exports", CompositeKey.of(tenant, region), 5);
     * if (!decision.allowed()) {
     *     return later(decision.retryAfter());
     * }
     * }</pre>
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @param cost permits to take, positive
     * @return the decision; {@link ThrottleDecision#allowed()} tells whether the permits were taken
     * @throws IllegalArgumentException for an unknown policy or a non-positive cost
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws CorruptedThrottleStateException when something else wrote under the key's Redis keys
     */
    ThrottleDecision acquire(String policy, Object key, int cost);

    /**
     * Takes {@code cost} permits of {@code policy} for the one-value {@code key}; see
     * {@link #acquire(String, Object, int)}.
     *
     * @param policy a known policy name
     * @param key the key, or {@code null} for the policy's global key
     * @param cost permits to take, positive
     * @return the decision; {@link ThrottleDecision#allowed()} tells whether the permits were taken
     * @throws IllegalArgumentException for an unknown policy or a non-positive cost
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws CorruptedThrottleStateException when something else wrote under the key's Redis keys
     */
    default ThrottleDecision acquire(String policy, String key, int cost) {
        return acquire(policy, (Object) key, cost);
    }

    /**
     * Takes one permit: {@code acquire(policy, key, 1)}.
     *
     * @param policy a known policy name
     * @param key the key, or {@code null} for the policy's global key
     * @return the decision; {@link ThrottleDecision#allowed()} tells whether the permit was taken
     * @throws IllegalArgumentException for an unknown policy
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws CorruptedThrottleStateException when something else wrote under the key's Redis keys
     */
    default ThrottleDecision acquire(String policy, String key) {
        return acquire(policy, (Object) key, 1);
    }

    /**
     * Takes one permit: {@code acquire(policy, key, 1)}.
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return the decision; {@link ThrottleDecision#allowed()} tells whether the permit was taken
     * @throws IllegalArgumentException for an unknown policy
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws CorruptedThrottleStateException when something else wrote under the key's Redis keys
     */
    default ThrottleDecision acquire(String policy, Object key) {
        return acquire(policy, key, 1);
    }

    /**
     * Takes {@code cost} permits like {@link #acquire(String, Object, int)}, and throws when they are not available:
     * the programmatic twin of a {@link Throttled} method.
     *
     * <pre>{@code
     * throttler.check("exports", CompositeKey.of(tenant, region), 5);
     * }</pre>
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @param cost permits to take, positive
     * @return the allowing decision (for the remaining permits)
     * @throws ThrottledException when the permits are not available, carrying the decision and its retry-after
     * @throws IllegalArgumentException for an unknown policy or a non-positive cost
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws CorruptedThrottleStateException when something else wrote under the key's Redis keys
     */
    default ThrottleDecision check(String policy, Object key, int cost) {
        return acquire(policy, key, cost).orThrow();
    }

    /**
     * Takes one permit, and throws when none is available: {@code check(policy, key, 1)}.
     *
     * <pre>{@code
     * throttler.check("exports", tenant);
     * }</pre>
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return the allowing decision
     * @throws ThrottledException when no permit is available, carrying the decision and its retry-after
     * @throws IllegalArgumentException for an unknown policy
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws CorruptedThrottleStateException when something else wrote under the key's Redis keys
     */
    default ThrottleDecision check(String policy, Object key) {
        return check(policy, key, 1);
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
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return the permit, held until closed
     * @throws ThrottledException when no permit is free (with the decision and its retry-after)
     * @throws IllegalArgumentException for an unknown policy or one that is not {@code CONCURRENCY}
     * @throws IllegalStateException on a Vert.x event-loop thread
     */
    ThrottlePermit acquirePermit(String policy, Object key);

    /**
     * Takes one permit of a {@link Algorithm#CONCURRENCY} policy for the one-value {@code key}; see
     * {@link #acquirePermit(String, Object)}.
     *
     * @param policy a known {@code CONCURRENCY} policy
     * @param key the key, or {@code null} for the policy's global key
     * @return the permit, held until closed
     * @throws ThrottledException when no permit is free (with the decision and its retry-after)
     * @throws IllegalArgumentException for an unknown policy or one that is not {@code CONCURRENCY}
     * @throws IllegalStateException on a Vert.x event-loop thread
     */
    default ThrottlePermit acquirePermit(String policy, String key) {
        return acquirePermit(policy, (Object) key);
    }

    /**
     * Tells whether one permit would be granted now, without consuming anything.
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return the decision one permit would get now
     * @throws IllegalArgumentException for an unknown policy
     * @throws IllegalStateException on a Vert.x event-loop thread
     */
    ThrottleDecision peek(String policy, Object key);

    /**
     * Tells whether one permit would be granted now for the one-value {@code key}; see {@link #peek(String, Object)}.
     *
     * @param policy a known policy name
     * @param key the key, or {@code null} for the policy's global key
     * @return the decision one permit would get now
     * @throws IllegalArgumentException for an unknown policy
     * @throws IllegalStateException on a Vert.x event-loop thread
     */
    default ThrottleDecision peek(String policy, String key) {
        return peek(policy, (Object) key);
    }

    /**
     * Forgets all state of {@code policy} for {@code key}: the next call starts from full capacity.
     *
     * <pre>{@code
     * throttler.reset("search", CompositeKey.of("acme", "eu"));
     * }</pre>
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @throws IllegalArgumentException for an unknown policy
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws io.quarkiverse.pacer.delay.PacerRedisException when Redis is unavailable
     */
    void reset(String policy, Object key);

    /**
     * Forgets all state of {@code policy} for the one-value {@code key}; see {@link #reset(String, Object)}.
     *
     * @param policy a known policy name
     * @param key the key, or {@code null} for the policy's global key
     * @throws IllegalArgumentException for an unknown policy
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws io.quarkiverse.pacer.delay.PacerRedisException when Redis is unavailable
     */
    default void reset(String policy, String key) {
        reset(policy, (Object) key);
    }

    /**
     * Overrides settings of {@code policy} on every instance, for every key, until {@link #clearOverride}: stored in
     * Redis (so it survives restarts) and announced to every instance, which enforces it within a second. It replaces
     * an earlier override of the policy as a whole. See {@link ThrottleOverride} for the precedence.
     *
     * <pre>{@code
     * throttler.override("search", ThrottleOverride.of().withLimit(10));
     * }</pre>
     *
     * @param policy a known policy name
     * @param override the settings to enforce
     * @throws IllegalArgumentException for an unknown policy, or settings the policy cannot take (a limit below the
     *         cost of one of its methods, ...)
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws io.quarkiverse.pacer.delay.PacerRedisException when Redis is unavailable
     */
    void override(String policy, ThrottleOverride override);

    /**
     * Removes the runtime override of {@code policy} on every instance (within a second); nothing happens when there
     * is none.
     *
     * @param policy a known policy name
     * @throws IllegalArgumentException for an unknown policy
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws io.quarkiverse.pacer.delay.PacerRedisException when Redis is unavailable
     */
    void clearOverride(String policy);

    /**
     * The runtime overrides in force on this instance.
     *
     * @return the overrides, by policy name
     */
    Map<String, ThrottleOverride> overrides();
}
