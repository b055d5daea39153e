package io.quarkiverse.pacer.benchmarks.throttle;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;

/**
 * The {@code @Throttled} methods under test: empty bodies, so a call costs exactly Pacer's interception and its one
 * Redis round trip. Limits match {@link ThrottleLimits}.
 */
@ApplicationScoped
public class ThrottledTargets {

    public static final String TOKEN_BUCKET_ADMITTED = "bench-token-bucket-admitted";
    public static final String TOKEN_BUCKET_REJECTED = "bench-token-bucket-rejected";
    public static final String SLIDING_LOG_ADMITTED = "bench-sliding-log-admitted";
    public static final String SLIDING_LOG_REJECTED = "bench-sliding-log-rejected";

    @Throttled(name = TOKEN_BUCKET_ADMITTED, limit = 1_000_000_000, window = "1s", algorithm = Algorithm.TOKEN_BUCKET)
    public void tokenBucketAdmitted(@ThrottleKey String key) {
    }

    @Throttled(name = TOKEN_BUCKET_REJECTED, limit = 1, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
    public void tokenBucketRejected(@ThrottleKey String key) {
    }

    @Throttled(name = SLIDING_LOG_ADMITTED, limit = 1_000_000_000, window = "1s", algorithm = Algorithm.SLIDING_LOG)
    public void slidingLogAdmitted(@ThrottleKey String key) {
    }

    @Throttled(name = SLIDING_LOG_REJECTED, limit = 1, window = "1h", algorithm = Algorithm.SLIDING_LOG)
    public void slidingLogRejected(@ThrottleKey String key) {
    }

    /** The method for an algorithm and limit setting. */
    public void call(Algorithm algorithm, ThrottleLimits limits, String key) {
        if (algorithm == Algorithm.TOKEN_BUCKET) {
            if (limits == ThrottleLimits.ADMITTED) {
                tokenBucketAdmitted(key);
            } else {
                tokenBucketRejected(key);
            }
        } else if (limits == ThrottleLimits.ADMITTED) {
            slidingLogAdmitted(key);
        } else {
            slidingLogRejected(key);
        }
    }
}
