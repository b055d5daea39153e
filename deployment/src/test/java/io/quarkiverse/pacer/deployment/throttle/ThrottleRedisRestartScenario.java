package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.deployment.support.RestartableRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;

/**
 * The scenario of every {@code ThrottleRedisRestart*Test}: exact limits while Redis runs; Redis killed: every decision
 * falls back as the mode documents and none hangs; Redis started again (empty): exact limits resume by themselves,
 * without restarting the application.
 */
abstract class ThrottleRedisRestartScenario {

    static final int LIMIT = 5;
    static final int CALLS_DURING_OUTAGE = 12;
    /** A decision never takes much longer than the budget (250 ms by default), even while Redis is down. */
    static final Duration NO_HANG = Duration.ofSeconds(3);

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    abstract RestartableRedis redis();

    /** How many of {@value #CALLS_DURING_OUTAGE} calls on one fresh key the mode admits while Redis is down. */
    abstract int admittedDuringOutage();

    @Test
    void fallsBackWhileRedisIsDownAndResumesExactly() throws Exception {
        try {
            scenario();
        } finally {
            // The test's own server: nothing is left running for the tests after it.
            redis().stop();
        }
    }

    private void scenario() throws Exception {
        assertExactLimit("before");
        assertThat(engine.fallbackDecisions()).isZero();

        redis().stop();
        int admitted = 0;
        for (int i = 0; i < CALLS_DURING_OUTAGE; i++) {
            long start = System.nanoTime();
            admitted += call("during") ? 1 : 0;
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(NO_HANG);
        }
        assertThat(admitted).isEqualTo(admittedDuringOutage());
        assertThat(engine.fallbackDecisions()).isEqualTo(CALLS_DURING_OUTAGE);

        redis().start();
        // Pacer reconnects by itself (backoff at most 2 s): wait for the first decision Redis makes again.
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            long before = engine.fallbackDecisions();
            call("probe");
            return engine.fallbackDecisions() == before;
        });
        long fallbacks = engine.fallbackDecisions();
        assertExactLimit("after");
        assertThat(engine.fallbackDecisions()).isEqualTo(fallbacks);
    }

    private void assertExactLimit(String key) {
        for (int i = 0; i < LIMIT; i++) {
            assertThat(call(key)).as("call %d on %s", i + 1, key).isTrue();
        }
        assertThat(call(key)).as("call %d on %s", LIMIT + 1, key).isFalse();
    }

    private boolean call(String key) {
        try {
            api.call(key);
            return true;
        } catch (ThrottledException rejected) {
            return false;
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "restart", limit = LIMIT, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public void call(@ThrottleKey String key) {
        }
    }
}
