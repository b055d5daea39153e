package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;

/**
 * One policy, a limit per plan: a {@link ThrottleLimitResolver} gives {@code free-*} keys 5 and {@code pro-*} keys 50
 * per window. Under concurrent load through two Redis clients (the Pacer bean and a second instance running the script
 * with the key's own limit), exactly the key's own limit is admitted, without a fallback; the resolver is asked once
 * per key; decisions report the key's limit; {@code blocked()} and {@code unlimited()} keys never reach Redis.
 */
class ThrottleLimitsPerKeyTest {

    static final Duration WINDOW = Duration.ofHours(1);
    static final int CALLS_PER_THREAD = 4;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, PlanLimits.class, RedisInfo.class, SecondInstance.class,
                    ConcurrentLoad.class));

    @Inject
    Api api;

    @Inject
    PlanLimits plans;

    @Inject
    Throttler throttler;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    @Inject
    Vertx vertx;

    @Test
    void eachPlanGetsExactlyItsLimitAcrossTwoInstances() throws Exception {
        try (SecondInstance second = new SecondInstance(vertx, RedisInfo.tcpPort(redis), engine.script())) {
            assertThat(admitted(second, "free-acme", 5)).isEqualTo(5);
            assertThat(admitted(second, "pro-globex", 50)).isEqualTo(50);
        }
        assertThat(engine.fallbackDecisions()).isZero();
        assertThat(plans.calls("free-acme")).isEqualTo(1);
        assertThat(plans.calls("pro-globex")).isEqualTo(1);
    }

    private int admitted(SecondInstance second, String key, int limit) throws InterruptedException {
        String baseKey = ThrottleKeyLayout.baseKey("pacer", "plans", key, "plans");
        return ConcurrentLoad.run(CALLS_PER_THREAD, () -> {
            try {
                api.call(key);
                return true;
            } catch (ThrottledException rejected) {
                assertThat(rejected.decision().limit()).isEqualTo(limit);
                return false;
            }
        }, () -> second.acquire(baseKey, 1, limit, WINDOW, limit, 1));
    }

    @Test
    void decisionsReportTheKeysOwnLimit() {
        assertThat(throttler.peek("plans", "free-initech").limit()).isEqualTo(5);
        assertThat(throttler.acquire("plans", "pro-initech").limit()).isEqualTo(50);
        assertThat(throttler.acquire("plans", "pro-initech").remaining()).isEqualTo(48);
        // A key no plan matches keeps the policy's own limit.
        assertThat(throttler.peek("plans", "other").limit()).isEqualTo(100);
    }

    @Test
    void blockedKeysAreRejectedWithoutRedis() {
        assertThatThrownBy(() -> api.call("blocked-umbrella")).isInstanceOfSatisfying(ThrottledException.class, e -> {
            assertThat(e.decision().limit()).isZero();
            assertThat(e.decision().retryAfter()).isEqualTo(Duration.ofSeconds(30));
        });
        try (SecondInstance second = new SecondInstance(vertx, RedisInfo.tcpPort(redis), engine.script())) {
            assertThat(second.throttleKeys()).noneMatch(key -> key.contains("blocked-umbrella"));
        }
    }

    @Test
    void unlimitedKeysAreNeverCounted() {
        for (int i = 0; i < 200; i++) {
            api.call("vip-wayne");
        }
        assertThat(throttler.acquire("plans", "vip-wayne").allowed()).isTrue();
        try (SecondInstance second = new SecondInstance(vertx, RedisInfo.tcpPort(redis), engine.script())) {
            assertThat(second.throttleKeys()).noneMatch(key -> key.contains("vip-wayne"));
        }
    }

    @ApplicationScoped
    public static class PlanLimits implements ThrottleLimitResolver {

        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @Override
        public ThrottleLimit resolve(String policy, String key) {
            calls.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            if (key.startsWith("free-")) {
                return ThrottleLimit.of(5);
            }
            if (key.startsWith("pro-")) {
                return ThrottleLimit.of(50);
            }
            if (key.startsWith("blocked-")) {
                return ThrottleLimit.blocked();
            }
            if (key.startsWith("vip-")) {
                return ThrottleLimit.unlimited();
            }
            return ThrottleLimit.of(100);
        }

        int calls(String key) {
            AtomicInteger count = calls.get(key);
            return count == null ? 0 : count.get();
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "plans", limit = 100, window = "1h", algorithm = Algorithm.FIXED_WINDOW, limits = PlanLimits.class)
        public void call(@ThrottleKey String tenant) {
        }
    }
}
