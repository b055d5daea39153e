package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.pacer.throttle.local-rejections.enabled=false}: every rejected call asks Redis, and the setting group
 * is not mistaken for a policy.
 */
class ThrottleLocalRejectionsDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.throttle.local-rejections.enabled", "false")
            .overrideConfigKey("quarkus.pacer.throttle.\"hourly\".limit", "1")
            .overrideConfigKey("quarkus.pacer.throttle.\"hourly\".window", "1h");

    @Inject
    Throttler throttler;

    @Inject
    PacerRedis redis;

    @Test
    void everyRejectionAsksRedis() {
        assertThat(throttler.acquire("hourly", "k").allowed()).isTrue();
        long before = RedisInfo.calls(redis, "evalsha");
        for (int i = 0; i < 5; i++) {
            assertThat(throttler.acquire("hourly", "k").allowed()).isFalse();
        }
        assertThat(RedisInfo.calls(redis, "evalsha") - before).isEqualTo(5);
    }
}
