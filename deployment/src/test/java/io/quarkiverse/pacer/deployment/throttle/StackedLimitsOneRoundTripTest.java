package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Three stacked policies of three algorithms cost one script call (one {@code EVALSHA}) per decision, and the script
 * source was loaded once at startup.
 */
class StackedLimitsOneRoundTripTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, RedisInfo.class));

    @Inject
    Api api;

    @Inject
    PacerRedis redis;

    @Test
    void oneEvalShaPerDecision() {
        long before = RedisInfo.calls(redis, "evalsha");
        for (int i = 0; i < 10; i++) {
            api.search("acme");
        }
        assertThat(RedisInfo.calls(redis, "evalsha") - before).isEqualTo(10);
        assertThat(RedisInfo.calls(redis, "eval")).isZero();
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "rt-daily", limit = 1000, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        @Throttled(name = "rt-minute", limit = 100, window = "1m", algorithm = Algorithm.SLIDING_WINDOW)
        @Throttled(name = "rt-burst", limit = 50, window = "1s")
        public String search(@ThrottleKey String tenant) {
            return tenant;
        }
    }
}
