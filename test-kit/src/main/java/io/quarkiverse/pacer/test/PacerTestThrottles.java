package io.quarkiverse.pacer.test;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleResets;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkus.arc.Unremovable;

/**
 * Clears throttling state in tests: a policy for every key at once, or every policy, so each test starts with full
 * limits whatever the tests before it took.
 *
 * <pre>
 * {@code
 * &#64;Inject
 * PacerTestThrottles throttles;
 *
 * @BeforeEach
 * void fullLimits() {
 *     throttles.reset("search"); // every tenant's "search" state
 * }
 * }
 * </pre>
 * <p>
 * Finds the policy's keys with {@code SCAN} (on Redis Cluster, on every master): meant for a test's Redis, not for a
 * production one. Runtime limit overrides ({@code ThrottleOverride}) are configuration, not state: they stay.
 */
@Singleton
@Unremovable
public class PacerTestThrottles {

    private final String keyPrefix;
    private final KeyScan scan;
    private final ThrottleResets resets;

    /** Created by CDI; inject the bean instead. */
    @Inject
    public PacerTestThrottles(PacerRedis redis, PacerConfig config, ThrottleResets resets) {
        this.keyPrefix = config.keyPrefix();
        this.scan = new KeyScan(redis);
        this.resets = resets;
    }

    /**
     * Deletes the state of {@code policy} for every key (the global key included): the next call on any key finds its
     * full limit, and a {@code CONCURRENCY} policy has no lease left.
     *
     * @param policy the policy name ({@code @Throttled(name = ...)}, by default {@code <class FQCN>#<method>})
     * @return the number of Redis keys deleted
     */
    public long reset(String policy) {
        List<String> keys = scan.find(KeyScan.literal(ThrottleKeyLayout.stateKeyStart(keyPrefix)) + "*",
                key -> ThrottleKeyLayout.isStateOf(key, keyPrefix, policy));
        long deleted = scan.delete(keys);
        resets.forgetLocalRejections();
        return deleted;
    }

    /**
     * Deletes the state of every policy for every key.
     *
     * @return the number of Redis keys deleted
     */
    public long resetAll() {
        String start = ThrottleKeyLayout.stateKeyStart(keyPrefix);
        long deleted = scan.delete(scan.find(KeyScan.literal(start) + "*", key -> key.startsWith(start)));
        resets.forgetLocalRejections();
        return deleted;
    }
}
