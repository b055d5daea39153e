package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.Admissions;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.deployment.support.SecondInstance;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ReactiveThrottler;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Runtime overrides: set through {@link Throttler#override}, enforced exactly at once and kept in Redis (one hash the
 * clear deletes); written by another instance (a second Redis client writing the hash and announcing it), enforced
 * here within a second, and within the periodic re-read even when the announcement is missed; invalid overrides are
 * refused with a message naming the policy.
 */
class ThrottleOverrideTest {

    static final String HASH = "pacer:throttle-overrides";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, RedisInfo.class, SecondInstance.class, Admissions.class));

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Inject
    ReactiveThrottler reactive;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    @Inject
    Vertx vertx;

    @AfterEach
    void clear() {
        throttler.clearOverride("search");
    }

    @Test
    void overrideAppliesAtOnceAndClearsLikewise() {
        throttler.override("search", ThrottleOverride.of().withLimit(3));
        assertThat(throttler.overrides()).containsEntry("search", ThrottleOverride.of().withLimit(3));
        assertThat(admitted("tenant-a", 10)).isEqualTo(3);
        assertThatThrownBy(() -> api.search("tenant-a")).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().limit()).isEqualTo(3));
        try (SecondInstance second = second()) {
            assertThat(second.send(Request.cmd(Command.HGET).arg(HASH).arg("search")).toString()).startsWith("l=3;");
            throttler.clearOverride("search");
            // The owner deletes its key: no override left, no hash left.
            assertThat(second.send(Request.cmd(Command.EXISTS).arg(HASH)).toInteger()).isZero();
        }
        assertThat(throttler.overrides()).isEmpty();
        // Back to 100 per hour, the same window: 97 more.
        assertThat(admitted("tenant-a", 200)).isEqualTo(97);
        assertThat(engine.fallbackDecisions()).isZero();
    }

    @Test
    void overrideOfAnotherInstanceIsEnforcedWithinOneSecond() {
        try (SecondInstance second = second()) {
            second.send(Request.cmd(Command.HSET).arg(HASH).arg("search").arg("l=2;w=;b=;e=;s="));
            long start = System.nanoTime();
            second.send(Request.cmd(Command.PUBLISH).arg(HASH).arg("changed"));
            await().atMost(Duration.ofSeconds(1)).until(() -> throttler.peek("search", "tenant-b").limit() == 2);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
            assertThat(admitted("tenant-b", 10)).isEqualTo(2);

            // Cleared without an announcement (a missed message): the periodic re-read applies it.
            second.send(Request.cmd(Command.HDEL).arg(HASH).arg("search"));
            await().atMost(Duration.ofMillis(1_500)).until(() -> throttler.peek("search", "tenant-b").limit() == 100);
            assertThat(admitted("tenant-b", 200)).isEqualTo(98);
        }
    }

    @Test
    void disabledAndShadowOverrides() {
        throttler.override("search", ThrottleOverride.of().withLimit(1).withShadow(true));
        assertThat(admitted("tenant-c", 5)).isEqualTo(5);
        reactive.override("search", ThrottleOverride.of().withLimit(1).withEnabled(false)).await().indefinitely();
        assertThat(admitted("tenant-c", 5)).isEqualTo(5);
        assertThat(throttler.acquire("search", "tenant-c").limit()).isEqualTo(Long.MAX_VALUE);
        throttler.override("search", ThrottleOverride.of().withLimit(1));
        // The shadow calls were counted, the disabled ones not: 6 taken of the window's 1.
        assertThat(admitted("tenant-c", 5)).isZero();
    }

    @Test
    void invalidOverridesAreRefused() {
        assertThatThrownBy(() -> throttler.override("nope", ThrottleOverride.of().withLimit(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown throttling policy \"nope\"");
        assertThatThrownBy(() -> throttler.override("costly", ThrottleOverride.of().withLimit(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"costly\"")
                .hasMessageContaining("below the cost 3 of " + Api.class.getName() + "#costly(java.lang.String)");
        assertThatThrownBy(() -> ThrottleOverride.of().withLimit(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be positive, was 0");
        assertThat(throttler.overrides()).isEmpty();
    }

    private int admitted(String key, int attempts) {
        return Admissions.count(attempts, () -> api.search(key));
    }

    private SecondInstance second() {
        return new SecondInstance(vertx, RedisInfo.tcpPort(redis), engine.script());
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "search", limit = 100, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public void search(@ThrottleKey String key) {
        }

        @Throttled(name = "costly", limit = 10, window = "1h", cost = 3, algorithm = Algorithm.FIXED_WINDOW)
        public void costly(@ThrottleKey String key) {
        }
    }
}
