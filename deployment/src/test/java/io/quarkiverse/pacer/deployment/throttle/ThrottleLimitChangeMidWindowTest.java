package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.Admissions;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A key changes plan in the middle of a window, and its state in Redis carries over as documented: a fixed window
 * keeps its count (upgraded from 5 to 50 after 5 calls: exactly 45 more), a sliding log its entries (likewise), a
 * token bucket its tokens clamped to the new capacity (downgraded from 50 to 5 with 40 left: exactly 5 more). The
 * windows are an hour long, so no refill or window change interferes. The answers are cached for 100 ms, so the
 * change is seen after that; the test waits until a decision reports the new limit.
 */
class ThrottleLimitChangeMidWindowTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Plans.class, Admissions.class))
            .overrideConfigKey("quarkus.pacer.throttle.limits.cache-ttl", "100ms");

    @Inject
    Api api;

    @Inject
    Plans plans;

    @Inject
    Throttler throttler;

    @Inject
    ThrottleEngine engine;

    @Test
    void fixedWindowKeepsItsCountOnUpgrade() {
        assertThat(upgradeAfterFive("fixed", api::fixed)).isEqualTo(45);
    }

    @Test
    void slidingLogKeepsItsEntriesOnUpgrade() {
        assertThat(upgradeAfterFive("log", api::log)).isEqualTo(45);
    }

    @Test
    void tokenBucketClampsItsTokensOnDowngrade() {
        String key = "acme-bucket";
        plans.set(key, 50);
        assertThat(Admissions.count(10, () -> api.bucket(key))).isEqualTo(10);
        assertThat(throttler.peek("bucket", key).remaining()).isEqualTo(40);
        plans.set(key, 5);
        await().atMost(Duration.ofSeconds(5)).until(() -> throttler.peek("bucket", key).limit() == 5);
        assertThat(Admissions.count(100, () -> api.bucket(key))).isEqualTo(5);
        assertThat(engine.fallbackDecisions()).isZero();
    }

    private int upgradeAfterFive(String policy, java.util.function.Consumer<String> call) {
        String key = "acme-" + policy;
        plans.set(key, 5);
        assertThat(Admissions.count(10, () -> call.accept(key))).isEqualTo(5);
        plans.set(key, 50);
        await().atMost(Duration.ofSeconds(5)).until(() -> throttler.peek(policy, key).limit() == 50);
        int more = Admissions.count(100, () -> call.accept(key));
        assertThat(engine.fallbackDecisions()).isZero();
        return more;
    }

    @ApplicationScoped
    public static class Plans implements ThrottleLimitResolver {

        private final Map<String, Integer> limits = new ConcurrentHashMap<>();

        void set(String key, int limit) {
            limits.put(key, limit);
        }

        @Override
        public ThrottleLimit resolve(String policy, String key) {
            return ThrottleLimit.of(limits.getOrDefault(key, 1));
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "fixed", limit = 1, window = "1h", algorithm = Algorithm.FIXED_WINDOW, limits = Plans.class)
        public void fixed(@ThrottleKey String key) {
        }

        @Throttled(name = "log", limit = 1, window = "1h", algorithm = Algorithm.SLIDING_LOG, limits = Plans.class)
        public void log(@ThrottleKey String key) {
        }

        @Throttled(name = "bucket", limit = 1, window = "1h", algorithm = Algorithm.TOKEN_BUCKET, limits = Plans.class)
        public void bucket(@ThrottleKey String key) {
        }
    }
}
