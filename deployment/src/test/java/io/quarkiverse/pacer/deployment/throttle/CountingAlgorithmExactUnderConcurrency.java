package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.deployment.support.ConcurrentLoad;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.deployment.support.SecondInstance;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;

/**
 * The scenario every counting algorithm's {@code ...ExactUnderConcurrencyTest} runs: 32 threads over two independent
 * Redis clients (the Pacer bean, and a second Vert.x client running the same script) fire {@value #ATTEMPTS} calls at
 * one key inside one window; exactly {@value #LIMIT} are admitted, and every key written has a TTL.
 */
abstract class CountingAlgorithmExactUnderConcurrency {

    static final int LIMIT = 20;
    static final int CALLS_PER_THREAD = 4;
    static final int ATTEMPTS = ConcurrentLoad.THREADS * CALLS_PER_THREAD;

    @Inject
    PacerRedis redis;

    @Inject
    ThrottleEngine engine;

    @Inject
    Vertx vertx;

    private final String policy;
    private final int algorithmCode;
    private final Duration window;

    /**
     * @param policy the policy name of the test's {@code @Throttled(limit = LIMIT)} method
     * @param algorithmCode the algorithm's number in the script protocol (see throttle-prelude.lua)
     * @param window the policy's window, long enough that no test run can cross it
     */
    CountingAlgorithmExactUnderConcurrency(String policy, int algorithmCode, Duration window) {
        this.policy = policy;
        this.algorithmCode = algorithmCode;
        this.window = window;
    }

    /** The test application: the test's {@code Api} (its {@code @Throttled} method) and what the scenario uses. */
    static QuarkusUnitTest application(Class<?> api) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(api, CountingAlgorithmExactUnderConcurrency.class,
                        SecondInstance.class, ConcurrentLoad.class, RedisInfo.class));
    }

    /** Calls the {@code @Throttled} method once. */
    abstract void hit();

    @Test
    void exactlyLimitAdmittedAcrossTwoInstances() throws Exception {
        try (SecondInstance second = new SecondInstance(vertx, RedisInfo.tcpPort(redis), engine.script())) {
            int admitted = ConcurrentLoad.run(CALLS_PER_THREAD, () -> {
                try {
                    hit();
                    return true;
                } catch (ThrottledException rejected) {
                    return false;
                }
            }, () -> second.acquire(SecondInstance.globalKey(policy), algorithmCode, LIMIT, window, LIMIT, 1));

            assertThat(ATTEMPTS).isGreaterThanOrEqualTo(4 * LIMIT);
            assertThat(admitted).isEqualTo(LIMIT);
            List<String> keys = second.throttleKeys();
            assertThat(keys).isNotEmpty()
                    .allSatisfy(key -> assertThat(key).startsWith(SecondInstance.globalKey(policy) + ":"));
            assertThat(keys).allSatisfy(key -> assertThat(second.pttl(key)).as("PTTL of %s", key).isPositive());
        }
    }
}
