package io.quarkiverse.pacer.benchmarks.throttle;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;

/**
 * The {@code @Throttled} method with limits per key: the same token bucket as
 * {@link ThrottledTargets#tokenBucketAdmitted}, whose every key gets that same limit from a resolver, so the two differ
 * only by the per-key limit lookup (the resolver answers once per key, then from Pacer's cache).
 */
@ApplicationScoped
public class PlanLimitsTargets {

    public static final String TOKEN_BUCKET_PLANS = "bench-token-bucket-plans";

    @Throttled(name = TOKEN_BUCKET_PLANS, limit = 1, window = "1s", algorithm = Algorithm.TOKEN_BUCKET, limits = SamePlan.class)
    public void tokenBucketPlans(@ThrottleKey String key) {
    }

    /** Every key on one plan, the admitted scenario's limit. */
    @ApplicationScoped
    public static class SamePlan implements ThrottleLimitResolver {
        private static final ThrottleLimit PLAN = ThrottleLimit.of(1_000_000_000);

        @Override
        public ThrottleLimit resolve(String policy, String key) {
            return PLAN;
        }
    }
}
