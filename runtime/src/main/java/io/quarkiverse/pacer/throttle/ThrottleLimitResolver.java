package io.quarkiverse.pacer.throttle;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

// @formatter:off
/**
 * Gives each key of a policy its own limit, for APIs sold in plans: selected with {@link Throttled#limits()}, it
 * answers, for a key, the {@link ThrottleLimit} to apply. Implementations are CDI beans (for example
 * {@code @ApplicationScoped}) and implement one of the two methods: {@link #resolve} (blocking, for example a database
 * query) or {@link #resolveAsync} (non-blocking, for example a reactive client); the build fails when neither is.
 * <p>
 * Pacer caches each answer per (policy, key) in memory for {@code quarkus.pacer.throttle.limits.cache-ttl}, so a
 * decision normally does not call the resolver at all, and concurrent callers of one key share one resolution. It
 * calls {@link #resolveAsync} for methods returning {@code Uni}, {@code CompletionStage} or {@code Multi} and for
 * {@link ReactiveThrottler} (never blocking an event loop: the default {@code resolveAsync} runs {@link #resolve} on
 * a worker thread), and {@link #resolve} on the caller's thread otherwise. A resolver that throws, fails or does not
 * answer within {@code quarkus.pacer.throttle.limits.timeout} gets the outcome of
 * {@code quarkus.pacer.throttle.limits.on-failure}: the policy's own limit (the default) or a rejection.
 * <p>
 * Precedence: a runtime override ({@link Throttler#override}) beats this resolver, which beats the configuration
 * ({@code quarkus.pacer.throttle."<policy>".*}), which beats the annotation.
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class PlanLimits implements ThrottleLimitResolver {
 *     @Inject
 *     Customers customers;
 *
 *     @Override
 *     public ThrottleLimit resolve(String policy, String key) {
 *         return switch (customers.planOf(key)) {
 *             case FREE -> ThrottleLimit.of(100, Duration.ofMinutes(1));
 *             case PRO -> ThrottleLimit.of(10_000, Duration.ofMinutes(1));
 *             case INTERNAL -> ThrottleLimit.unlimited();
 *             case SUSPENDED -> ThrottleLimit.blocked();
 *         };
 *     }
 * }
 *
 * // on a bean method
 * @Throttled(name = "api", limit = 100, window = "1m", limits = PlanLimits.class)
 * public Report report(@ThrottleKey String customer) {
 *     return reports.build(customer);
 * }
 * }</pre>
 */
// @formatter:on
public interface ThrottleLimitResolver {

    /**
     * The limit of {@code key}, blocking. The default awaits {@link #resolveAsync}.
     *
     * @param policy the policy name
     * @param key the throttling key as Pacer encodes it (the string {@link ThrottleDecision#key()} reports: a single
     *        key value as is unless it contains {@code \} or {@code ,}, which are escaped with {@code \}; keys
     *        longer than 100 characters are hashed; the empty string for the global key)
     * @return the limit; never {@code null}
     */
    default ThrottleLimit resolve(String policy, String key) {
        return resolveAsync(policy, key).await().indefinitely();
    }

    /**
     * The limit of {@code key}, without blocking the calling thread. The default runs {@link #resolve} on a worker
     * thread.
     *
     * @param policy the policy name
     * @param key the throttling key as Pacer encodes it (see {@link #resolve})
     * @return the limit; never a {@code null} item
     */
    default Uni<ThrottleLimit> resolveAsync(String policy, String key) {
        return Uni.createFrom().item(() -> resolve(policy, key)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
