package io.quarkiverse.pacer.throttle;

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
     * Tells whether one permit would be granted now, without consuming anything.
     */
    Uni<ThrottleDecision> peek(String policy, String key);

    /**
     * Forgets all state of {@code policy} for {@code key}.
     */
    Uni<Void> reset(String policy, String key);
}
