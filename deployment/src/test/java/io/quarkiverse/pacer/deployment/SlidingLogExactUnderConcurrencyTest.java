package io.quarkiverse.pacer.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;

/**
 * SLIDING_LOG: 32 threads over two independent Redis clients (the Pacer bean, and a second Vert.x client running the same
 * script) fire {@value #ATTEMPTS} calls at one key inside one window; exactly {@value #LIMIT} are admitted (exact over any rolling window),
 * and every key written has a TTL.
 */
class SlidingLogExactUnderConcurrencyTest {

    static final int LIMIT = 20;
    static final int CALLS_PER_THREAD = 4;
    static final int ATTEMPTS = ConcurrentLoad.THREADS * CALLS_PER_THREAD;
    static final Duration WINDOW = Duration.parse("PT1H");

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, SecondInstance.class, ConcurrentLoad.class,
                    RedisInfo.class))
            // A loaded CI machine must not turn a slow decision into a fallback that would skew the count.
            .overrideConfigKey("quarkus.pacer.throttle.timeout", "10s");

    @Inject
    Api api;

    @Inject
    PacerRedis redis;

    @Inject
    ThrottleEngine engine;

    @Inject
    Vertx vertx;

    @Test
    void exactlyLimitAdmittedAcrossTwoInstances() throws Exception {
        try (SecondInstance second = new SecondInstance(vertx, RedisInfo.tcpPort(redis), engine.script().sha1())) {
            int admitted = ConcurrentLoad.run(CALLS_PER_THREAD, () -> {
                try {
                    api.hit();
                    return true;
                } catch (ThrottledException rejected) {
                    return false;
                }
            }, () -> second.acquire(SecondInstance.globalKey(Api.POLICY), 3, LIMIT, WINDOW, LIMIT, 1));

            assertThat(ATTEMPTS).isGreaterThanOrEqualTo(4 * LIMIT);
            assertThat(admitted).isEqualTo(LIMIT);
            List<String> keys = second.throttleKeys();
            assertThat(keys).isNotEmpty().allSatisfy(key -> assertThat(key).startsWith("pacer:t:{" + Api.POLICY + ":}"));
            assertThat(keys).allSatisfy(key -> assertThat(second.pttl(key)).as("PTTL of %s", key).isPositive());
        }
    }

    @ApplicationScoped
    public static class Api {
        static final String POLICY = "sliding-log";

        @Throttled(name = POLICY, limit = LIMIT, window = "1h", algorithm = Algorithm.SLIDING_LOG)
        public void hit() {
        }
    }
}
