package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The exactness bound applies only to the algorithms that multiply permits by microseconds: 100,000 per day
 * (8.64e15 permit-µs, above 2^52) builds and is exact with FIXED_WINDOW, SLIDING_LOG and CONCURRENCY.
 */
class ThrottleLargeFixedWindowTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "daily", limit = 100_000, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        public String daily() {
            return "ok";
        }

        @Throttled(name = "daily-log", limit = 100_000, window = "1d", algorithm = Algorithm.SLIDING_LOG)
        public String dailyLog() {
            return "ok";
        }

        @Throttled(name = "daily-slots", limit = 100_000, window = "1d", algorithm = Algorithm.CONCURRENCY)
        public String dailySlots() {
            return "ok";
        }
    }

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Test
    void largeLimitsPerDayWork() {
        assertThat(api.daily()).isEqualTo("ok");
        assertThat(api.dailyLog()).isEqualTo("ok");
        assertThat(api.dailySlots()).isEqualTo("ok");
        assertThat(throttler.peek("daily", null).remaining()).isEqualTo(99_999);
        assertThat(throttler.peek("daily-log", null).remaining()).isEqualTo(99_999);
    }

    /** With the default 250 ms budget: every decision was made by Redis, none by the fallback. */
    @AfterEach
    void everyDecisionCameFromRedis() {
        assertThat(Arc.container().instance(ThrottleEngine.class).get().fallbackDecisions()).as("fallback decisions")
                .isZero();
    }
}
