package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.ConcurrentLoad;
import io.quarkiverse.pacer.deployment.support.SecondInstance;
import io.quarkiverse.pacer.deployment.support.ThrottleCalls;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * On a local 3-master Redis Cluster, two instances (the application and a second cluster client running the same
 * script) with 32 concurrent callers: every algorithm, keyed and global stacked policies, and a policy shared between
 * a stack and a single-policy method admit exactly their limits; CONCURRENCY leases are released; the programmatic
 * API peeks and resets. With {@code on-redis-failure=allow}, a CROSSSLOT error would admit every call instead.
 */
class ClusterThrottleExactTest {

    static final int LIMIT = 20;
    static final int CALLS_PER_THREAD = 4;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(
                    jar -> jar.addClasses(Api.class, SecondInstance.class, ConcurrentLoad.class, ThrottleCalls.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster");

    static SecondInstance second;

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Inject
    PacerRedis redis;

    @BeforeAll
    static void secondInstance() {
        String hosts = ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class);
        ThrottleEngine engine = Arc.container().instance(ThrottleEngine.class).get();
        second = SecondInstance.onCluster(Arc.container().instance(Vertx.class).get(), hosts, engine.script());
    }

    @AfterAll
    static void closeSecond() {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void theApplicationRunsOnTheCluster() {
        assertThat(ConfigProvider.getConfig().getValue("quarkus.redis.client-type", String.class)).isEqualTo("cluster");
        String info = redis.send(Request.cmd(Command.CLUSTER).arg("INFO")).await().atMost(Duration.ofSeconds(5))
                .toString();
        assertThat(info).contains("cluster_state:ok", "cluster_size:3");
    }

    @Test
    void everyCountingAlgorithmIsExact() throws Exception {
        assertExact("fixed-window", 1, Duration.ofDays(1), api::fixedWindow);
        assertExact("sliding-window", 2, Duration.ofDays(1), api::slidingWindow);
        assertExact("sliding-log", 3, Duration.ofHours(1), api::slidingLog);
        assertExact("token-bucket", 4, Duration.ofDays(1), api::tokenBucket);
        assertExact("leaky-bucket", 5, Duration.ofDays(1), api::leakyBucket);
    }

    private void assertExact(String policy, int code, Duration window, Runnable hit) throws Exception {
        String key = ThrottleKeyLayout.baseKey("pacer", policy, "", policy);
        int admitted = ConcurrentLoad.run(CALLS_PER_THREAD, () -> ThrottleCalls.admitted(hit),
                () -> second.acquire(key, code, LIMIT, window, LIMIT, 1));
        assertThat(admitted).as(policy).isEqualTo(LIMIT);
    }

    @Test
    void keyedStackAndSharedPolicyAreExact() throws Exception {
        // Stack: outer 30 (sliding window), inner 50 (token bucket); "inner" is also used alone by another method.
        String tag = ThrottleKeyBuilder.of("acme");
        List<String> keys = List.of(ThrottleKeyLayout.baseKey("pacer", "keyed-outer", tag, "keyed-outer"),
                ThrottleKeyLayout.baseKey("pacer", "keyed-inner", tag, "keyed-inner"));
        int admitted = ConcurrentLoad.run(8, () -> ThrottleCalls.admitted(() -> api.keyedStack("acme")),
                () -> stacked(keys, 2, 30, 4, 50));
        assertThat(admitted).isEqualTo(30);
        // The shared policy kept one state: 50 - 30 left for the single-policy method.
        int shared = ConcurrentLoad.run(2, () -> ThrottleCalls.admitted(() -> api.keyedInnerOnly("acme")),
                () -> second.acquire(keys.get(1), 4, 50, Duration.ofDays(1), 50, 1));
        assertThat(shared).isEqualTo(20);
        assertThat(throttler.peek("keyed-outer", "acme").remaining()).isZero();
        // Another key has its own state, in its own slot.
        api.keyedStack("other");
    }

    @Test
    void globalStackAndSharedPolicyAreExact() throws Exception {
        // "global-a" and "global-b" are stacked globally, so their global keys share the group tag of "global-a".
        List<String> keys = List.of(ThrottleKeyLayout.baseKey("pacer", "global-a", "", "global-a"),
                ThrottleKeyLayout.baseKey("pacer", "global-b", "", "global-a"));
        int admitted = ConcurrentLoad.run(8, () -> ThrottleCalls.admitted(api::globalStack), () -> stacked(keys, 1, 25, 5, 40));
        assertThat(admitted).isEqualTo(25);
        int shared = ConcurrentLoad.run(2, () -> ThrottleCalls.admitted(api::globalBOnly),
                () -> second.acquire(keys.get(1), 5, 40, Duration.ofDays(1), 40, 1));
        assertThat(shared).isEqualTo(15);
        assertThat(throttler.peek("global-b", null).remaining()).isZero();
    }

    private boolean stacked(List<String> keys, int firstCode, int firstLimit, int secondCode, int secondLimit) {
        List<Object> arguments = new ArrayList<>(keys);
        arguments.addAll(List.of("0", "second-" + System.nanoTime() + "-" + Thread.currentThread().getId()));
        arguments.addAll(List.of(firstCode, firstLimit, Duration.ofDays(1).toNanos() / 1000, firstLimit, 1, 0));
        arguments.addAll(List.of(secondCode, secondLimit, Duration.ofDays(1).toNanos() / 1000, secondLimit, 1, 0));
        return second.eval(2, arguments).get(0).toInteger() == 1;
    }

    @Test
    void concurrencyIsExactAndLeasesAreReleased() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Api.release = release;
        String key = ThrottleKeyLayout.baseKey("pacer", "concurrency", "", "concurrency");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(LIMIT * 2);
        for (int i = 0; i < LIMIT * 2; i++) {
            Thread thread = new Thread(() -> {
                try {
                    api.concurrency(inside);
                } catch (ThrottledException e) {
                    rejected.incrementAndGet();
                } finally {
                    done.countDown();
                }
            });
            thread.start();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> inside.get() + rejected.get() == LIMIT * 2);
        assertThat(inside.get()).isEqualTo(LIMIT);
        assertThat(rejected.get()).isEqualTo(LIMIT);
        // The second instance sees the same full lease set.
        assertThat(second.acquire(key, 6, LIMIT, Duration.ofMinutes(1), LIMIT, 1)).isFalse();
        release.countDown();
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        // Every lease was released (not expired: the lease lasts a minute).
        await().atMost(Duration.ofSeconds(10))
                .until(() -> throttler.peek("concurrency", null).remaining() == LIMIT);
    }

    @Test
    void programmaticApiAcquiresPeeksAndResets() {
        for (String key : List.of("k1", "k2", "k3", "k4", "k5", "k6")) {
            ThrottleDecision first = throttler.acquire("programmatic", key, 3);
            assertThat(first.allowed()).isTrue();
            assertThat(first.remaining()).isEqualTo(2);
            assertThat(throttler.acquire("programmatic", key, 3).allowed()).isFalse();
            assertThat(throttler.peek("programmatic", key).remaining()).isEqualTo(2);
            throttler.reset("programmatic", key);
            assertThat(throttler.peek("programmatic", key).remaining()).isEqualTo(5);
        }
    }

    @ApplicationScoped
    public static class Api {
        static volatile CountDownLatch release;

        @Throttled(name = "fixed-window", limit = LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        public void fixedWindow() {
        }

        @Throttled(name = "sliding-window", limit = LIMIT, window = "1d", algorithm = Algorithm.SLIDING_WINDOW)
        public void slidingWindow() {
        }

        @Throttled(name = "sliding-log", limit = LIMIT, window = "1h", algorithm = Algorithm.SLIDING_LOG)
        public void slidingLog() {
        }

        @Throttled(name = "token-bucket", limit = LIMIT, window = "1d", algorithm = Algorithm.TOKEN_BUCKET)
        public void tokenBucket() {
        }

        @Throttled(name = "leaky-bucket", limit = LIMIT, window = "1d", algorithm = Algorithm.LEAKY_BUCKET)
        public void leakyBucket() {
        }

        @Throttled(name = "concurrency", limit = LIMIT, window = "1m", algorithm = Algorithm.CONCURRENCY)
        public void concurrency(AtomicInteger inside) {
            inside.incrementAndGet();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Throttled(name = "keyed-outer", limit = 30, window = "1d", algorithm = Algorithm.SLIDING_WINDOW)
        @Throttled(name = "keyed-inner", limit = 50, window = "1d")
        public void keyedStack(@ThrottleKey String tenant) {
        }

        @Throttled(name = "keyed-inner", limit = 50, window = "1d")
        public void keyedInnerOnly(@ThrottleKey String tenant) {
        }

        @Throttled(name = "global-a", limit = 25, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        @Throttled(name = "global-b", limit = 40, window = "1d", algorithm = Algorithm.LEAKY_BUCKET)
        public void globalStack() {
        }

        @Throttled(name = "global-b", limit = 40, window = "1d", algorithm = Algorithm.LEAKY_BUCKET)
        public void globalBOnly() {
        }

        @Throttled(name = "programmatic", limit = 5, window = "1d")
        public void programmatic() {
        }
    }

    /** With the default 250 ms budget: every decision was made by Redis, none by the fallback. */
    @AfterEach
    void everyDecisionCameFromRedis() {
        assertThat(Arc.container().instance(ThrottleEngine.class).get().fallbackDecisions()).as("fallback decisions")
                .isZero();
    }
}
