package io.quarkiverse.pacer.throttle;

import java.util.function.Function;

import io.smallrye.mutiny.Uni;

/**
 * Programmatic, non-blocking access to Pacer's rate limits: the reactive twin of {@link Throttler}, safe on Vert.x
 * event-loop threads. The returned {@link Uni}s are lazy: nothing is sent to Redis until subscription.
 *
 * <pre>{@code
 * @Inject
 * ReactiveThrottler throttler;
 *
 * Uni<Report> report(String tenant) {
 *     return throttler.acquire("reports", tenant, 5)
 *             .onItem().transformToUni(decision -> decision.allowed()
 *                     ? generate(tenant)
 *                     : Uni.createFrom().failure(new ThrottledException(List.of(decision))));
 * }
 * }</pre>
 */
public interface ReactiveThrottler {

    /**
     * Takes {@code cost} permits of {@code policy} for {@code key} if available; see {@link Throttler#acquire}.
     */
    Uni<ThrottleDecision> acquire(String policy, String key, int cost);

    /**
     * Takes one permit: {@code acquire(policy, key, 1)}.
     */
    default Uni<ThrottleDecision> acquire(String policy, String key) {
        return acquire(policy, key, 1);
    }

    /**
     * Takes one permit of a {@link Algorithm#CONCURRENCY} policy, held (and renewed) until
     * {@link ThrottlePermit#close()}; see {@link Throttler#acquirePermit}. A rejection fails the {@code Uni} with
     * {@link ThrottledException}. Prefer {@link #withPermit}, which cannot forget the release.
     */
    Uni<ThrottlePermit> acquirePermit(String policy, String key);

    /**
     * Runs {@code work} while holding a permit of a {@link Algorithm#CONCURRENCY} policy, and releases the permit
     * when the {@code Uni} it returns completes, fails or is cancelled.
     *
     * <pre>{@code
     * Uni<Void> rebuild(String tenant) {
     *     return throttler.withPermit("index-rebuild", tenant, permit -> index.rebuild(tenant, permit.fencingToken()));
     * }
     * }</pre>
     */
    <T> Uni<T> withPermit(String policy, String key, Function<ThrottlePermit, Uni<T>> work);

    /**
     * Tells whether one permit would be granted now, without consuming anything.
     */
    Uni<ThrottleDecision> peek(String policy, String key);

    /**
     * Forgets all state of {@code policy} for {@code key}.
     */
    Uni<Void> reset(String policy, String key);

    /**
     * Overrides settings of {@code policy} on every instance until {@link #clearOverride}; see
     * {@link Throttler#override}. Completes once stored in Redis and announced. An unknown policy or invalid settings
     * fail the {@code Uni} with {@link IllegalArgumentException}.
     */
    Uni<Void> override(String policy, ThrottleOverride override);

    /**
     * Removes the runtime override of {@code policy} on every instance; see {@link Throttler#clearOverride}.
     */
    Uni<Void> clearOverride(String policy);
}
