package io.quarkiverse.pacer.throttle;

import java.util.function.Function;

import io.smallrye.mutiny.Uni;

// @formatter:off
/**
 * Programmatic, non-blocking access to Pacer's rate limits: the reactive twin of {@link Throttler}, safe on Vert.x
 * event-loop threads. The returned {@link Uni}s are lazy: nothing is sent to Redis until subscription. Keys are as
 * for {@link Throttler}: a value, a {@link CompositeKey}, or {@code null} for the policy's global key.
 *
 * <pre>{@code
 * @Inject
 * ReactiveThrottler throttler;
 *
 * Uni<Report> report(String tenant) {
 *     return throttler.check("reports", tenant, 5) // fails with ThrottledException when over the limit
 *             .chain(() -> generate(tenant));
 * }
 * }</pre>
 *
 * Failures are delivered through the {@code Uni}: {@link ThrottledException} for a rejected {@code check} or permit,
 * {@link IllegalArgumentException} for an unknown policy, {@code io.quarkiverse.pacer.delay.PacerRedisException} when
 * Redis is unavailable for a {@code reset} or an override (decisions follow
 * {@code quarkus.pacer.throttle.on-redis-failure} instead).
 */
// @formatter:on
public interface ReactiveThrottler {

    /**
     * Takes {@code cost} permits of {@code policy} for {@code key} if available; see
     * {@link Throttler#acquire(String, Object, int)}.
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @param cost permits to take, positive
     * @return the decision; {@link ThrottleDecision#allowed()} tells whether the permits were taken
     */
    Uni<ThrottleDecision> acquire(String policy, Object key, int cost);

    /**
     * Takes {@code cost} permits of {@code policy} for the one-value {@code key}; see
     * {@link #acquire(String, Object, int)}.
     *
     * @param policy a known policy name
     * @param key the key, or {@code null} for the policy's global key
     * @param cost permits to take, positive
     * @return the decision
     */
    default Uni<ThrottleDecision> acquire(String policy, String key, int cost) {
        return acquire(policy, (Object) key, cost);
    }

    /**
     * Takes one permit: {@code acquire(policy, key, 1)}.
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return the decision
     */
    default Uni<ThrottleDecision> acquire(String policy, Object key) {
        return acquire(policy, key, 1);
    }

    /**
     * Takes one permit for the one-value {@code key}: {@code acquire(policy, key, 1)}.
     *
     * @param policy a known policy name
     * @param key the key, or {@code null} for the policy's global key
     * @return the decision
     */
    default Uni<ThrottleDecision> acquire(String policy, String key) {
        return acquire(policy, (Object) key, 1);
    }

    /**
     * Takes {@code cost} permits, failing with {@link ThrottledException} when they are not available; see
     * {@link Throttler#check(String, Object, int)}.
     *
     * <pre>{@code
     * return throttler.check("exports", CompositeKey.of(tenant, region), 5).chain(() -> export(tenant));
     * }</pre>
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @param cost permits to take, positive
     * @return the allowing decision; the {@code Uni} fails with {@link ThrottledException} on rejection
     */
    default Uni<ThrottleDecision> check(String policy, Object key, int cost) {
        return acquire(policy, key, cost).map(ThrottleDecision::orThrow);
    }

    /**
     * Takes one permit, failing with {@link ThrottledException} when none is available.
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return the allowing decision; the {@code Uni} fails with {@link ThrottledException} on rejection
     */
    default Uni<ThrottleDecision> check(String policy, Object key) {
        return check(policy, key, 1);
    }

    /**
     * Takes one permit of a {@link Algorithm#CONCURRENCY} policy, held (and renewed) until
     * {@link ThrottlePermit#close()}; see {@link Throttler#acquirePermit(String, Object)}. A rejection fails the
     * {@code Uni} with {@link ThrottledException}. Prefer {@link #withPermit}, which cannot forget the release.
     *
     * @param policy a known {@code CONCURRENCY} policy
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return the permit, held until closed
     */
    Uni<ThrottlePermit> acquirePermit(String policy, Object key);

    /**
     * Takes one permit of a {@link Algorithm#CONCURRENCY} policy for the one-value {@code key}; see
     * {@link #acquirePermit(String, Object)}.
     *
     * @param policy a known {@code CONCURRENCY} policy
     * @param key the key, or {@code null} for the policy's global key
     * @return the permit, held until closed
     */
    default Uni<ThrottlePermit> acquirePermit(String policy, String key) {
        return acquirePermit(policy, (Object) key);
    }

    /**
     * Runs {@code work} while holding a permit of a {@link Algorithm#CONCURRENCY} policy, and releases the permit
     * when the {@code Uni} it returns completes, fails or is cancelled.
     *
     * <pre>{@code
     * Uni<Void> rebuild(String tenant) {
     *     return throttler.withPermit("index-rebuild", tenant, permit -> index.rebuild(tenant, permit.fencingToken()));
     * }
     * }</pre>
     *
     * @param <T> the result type of {@code work}
     * @param policy a known {@code CONCURRENCY} policy
     * @param key the key, or {@code null} for the policy's global key
     * @param work what to run while the permit is held
     * @return the result of {@code work}; fails with {@link ThrottledException} when no permit is free
     */
    <T> Uni<T> withPermit(String policy, String key, Function<ThrottlePermit, Uni<T>> work);

    /**
     * Tells whether one permit would be granted now, without consuming anything.
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return the decision one permit would get now
     */
    Uni<ThrottleDecision> peek(String policy, Object key);

    /**
     * Tells whether one permit would be granted now for the one-value {@code key}.
     *
     * @param policy a known policy name
     * @param key the key, or {@code null} for the policy's global key
     * @return the decision one permit would get now
     */
    default Uni<ThrottleDecision> peek(String policy, String key) {
        return peek(policy, (Object) key);
    }

    /**
     * Forgets all state of {@code policy} for {@code key}.
     *
     * @param policy a known policy name
     * @param key the key: a value, a {@link CompositeKey}, or {@code null} for the policy's global key
     * @return completes once the state is deleted
     */
    Uni<Void> reset(String policy, Object key);

    /**
     * Forgets all state of {@code policy} for the one-value {@code key}.
     *
     * @param policy a known policy name
     * @param key the key, or {@code null} for the policy's global key
     * @return completes once the state is deleted
     */
    default Uni<Void> reset(String policy, String key) {
        return reset(policy, (Object) key);
    }

    /**
     * Overrides settings of {@code policy} on every instance until {@link #clearOverride}; see
     * {@link Throttler#override}. Completes once stored in Redis and announced. An unknown policy or invalid settings
     * fail the {@code Uni} with {@link IllegalArgumentException}.
     *
     * @param policy a known policy name
     * @param override the settings to enforce
     * @return completes once stored and announced
     */
    Uni<Void> override(String policy, ThrottleOverride override);

    /**
     * Removes the runtime override of {@code policy} on every instance; see {@link Throttler#clearOverride}.
     *
     * @param policy a known policy name
     * @return completes once removed and announced
     */
    Uni<Void> clearOverride(String policy);
}
