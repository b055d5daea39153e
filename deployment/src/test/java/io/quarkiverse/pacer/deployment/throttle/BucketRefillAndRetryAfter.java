package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.Throttler;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The scenario of the bucket algorithms' {@code ...RefillAndRetryAfterTest}: the bucket refills continuously at 5
 * permits per 5 s, measured on the Redis clock: once empty, the retry-after is at most one permit interval (1 s), is
 * never early (a retry before it is still rejected), and a retry once Redis time has passed it is admitted. The key's
 * TTL covers the state.
 */
abstract class BucketRefillAndRetryAfter {

    static final long PERMIT_INTERVAL_MICROS = 1_000_000;

    @Inject
    Throttler throttler;

    @Inject
    PacerRedis redis;

    /** The suffix of the algorithm's Redis key (see the algorithm's Lua file). */
    abstract String keySuffix();

    @Test
    void retryAfterIsExactAgainstRedisTime() {
        long start = redisTimeMicros();
        for (int i = 0; i < 5; i++) {
            assertThat(throttler.acquire("refill", null).allowed()).isTrue();
        }
        long beforeRejection = redisTimeMicros();
        ThrottleDecision rejected = throttler.acquire("refill", null);
        long afterRejection = redisTimeMicros();
        assertThat(rejected.allowed()).isFalse();
        long retryAfter = rejected.retryAfter().toNanos() / 1000;
        assertThat(retryAfter).isPositive().isLessThanOrEqualTo(PERMIT_INTERVAL_MICROS)
                .isGreaterThanOrEqualTo(PERMIT_INTERVAL_MICROS - (afterRejection - start));

        // Never early: a retry that Redis decides before the announced time is still rejected.
        ThrottleDecision early = throttler.acquire("refill", null);
        if (redisTimeMicros() < beforeRejection + retryAfter) {
            assertThat(early.allowed()).isFalse();
        }

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> redisTimeMicros() >= afterRejection + retryAfter);
        assertThat(throttler.acquire("refill", null).allowed()).isTrue();

        long pttl = redis
                .send(Request.cmd(Command.PTTL)
                        .arg(ThrottleKeyLayout.baseKey("pacer", "refill", "", "refill") + ":" + keySuffix()))
                .await().atMost(Duration.ofSeconds(5))
                .toLong();
        assertThat(pttl).isPositive().isLessThanOrEqualTo(5001);
    }

    private long redisTimeMicros() {
        Response time = redis.send(Request.cmd(Command.TIME)).await().atMost(Duration.ofSeconds(5));
        return time.get(0).toLong() * 1_000_000 + time.get(1).toLong();
    }
}
