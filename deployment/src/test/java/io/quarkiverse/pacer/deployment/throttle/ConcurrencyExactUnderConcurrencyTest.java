package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.ConcurrentLoad;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.deployment.support.SecondInstance;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;

/**
 * CONCURRENCY: 32 threads over two independent Redis clients try to enter at once while nobody leaves; exactly
 * {@value #LIMIT} get in. When the bean's calls complete their leases are released (the second instance's leases,
 * never released, still count), and every key has a TTL.
 */
class ConcurrencyExactUnderConcurrencyTest {

    static final int LIMIT = 8;
    static final Duration LEASE = Duration.ofHours(1);

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, SecondInstance.class, ConcurrentLoad.class,
                    RedisInfo.class));

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Inject
    PacerRedis redis;

    @Inject
    ThrottleEngine engine;

    @Inject
    Vertx vertx;

    @Test
    void exactlyLimitInFlightAcrossTwoInstances() throws Exception {
        AtomicInteger done = new AtomicInteger();
        AtomicInteger secondAdmitted = new AtomicInteger();
        try (SecondInstance second = new SecondInstance(vertx, RedisInfo.tcpPort(redis), engine.script())) {
            CompletableFuture<Integer> load = CompletableFuture.supplyAsync(() -> {
                try {
                    return ConcurrentLoad.run(1, () -> {
                        try {
                            api.hold();
                            return true;
                        } catch (ThrottledException rejected) {
                            done.incrementAndGet();
                            return false;
                        }
                    }, () -> {
                        boolean admitted = second.acquire(SecondInstance.globalKey(Api.POLICY), 6, LIMIT, LEASE, LIMIT, 1);
                        if (admitted) {
                            secondAdmitted.incrementAndGet();
                        }
                        done.incrementAndGet();
                        return admitted;
                    });
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });

            // Everyone has either been rejected, taken a lease on the second instance, or entered the bean method.
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> done.get() + api.entered() == ConcurrentLoad.THREADS);
            assertThat(api.entered() + secondAdmitted.get()).isEqualTo(LIMIT);

            api.open();
            assertThat(load.get(60, TimeUnit.SECONDS)).isEqualTo(LIMIT);

            // The bean's leases are released after its calls; the second instance never released its own.
            int released = api.entered();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> throttler.peek(Api.POLICY, null).remaining() == released);
            String leases = SecondInstance.globalKey(Api.POLICY) + ":cc";
            String fence = SecondInstance.globalKey(Api.POLICY) + ":ccf";
            if (secondAdmitted.get() == 0) {
                // The bean took every lease and released them all: only the last fencing token is left, expiring.
                assertThat(second.throttleKeys()).containsExactly(fence)
                        .allSatisfy(key -> assertThat(second.pttl(key)).isPositive());
            } else {
                assertThat(second.throttleKeys()).containsExactlyInAnyOrder(leases, fence)
                        .allSatisfy(key -> assertThat(second.pttl(key)).isPositive());
            }
        }
    }

    @ApplicationScoped
    public static class Api {
        static final String POLICY = "in-flight";

        private final AtomicInteger entered = new AtomicInteger();
        private final CountDownLatch gate = new CountDownLatch(1);

        @Throttled(name = POLICY, limit = LIMIT, window = "1h", algorithm = Algorithm.CONCURRENCY)
        public void hold() {
            entered.incrementAndGet();
            try {
                gate.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        int entered() {
            return entered.get();
        }

        void open() {
            gate.countDown();
        }
    }
}
