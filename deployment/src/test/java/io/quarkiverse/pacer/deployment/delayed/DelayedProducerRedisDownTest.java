package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.PacerRedisException;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With Redis unreachable, producer calls fail after the producer timeout with the public
 * {@link RedisUnavailableException} (a {@link PacerRedisException}), blocking and reactive alike, and so do the
 * administrative calls of {@link Throttler}.
 */
class DelayedProducerRedisDownTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            // Nothing listens on port 1: connections are refused.
            .overrideConfigKey("quarkus.redis.hosts", "redis://localhost:1")
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false")
            .overrideConfigKey("quarkus.pacer.delayed.producer-timeout", "300ms")
            .overrideConfigKey("quarkus.pacer.throttle.\"exports\".limit", "5")
            .overrideConfigKey("quarkus.pacer.throttle.\"exports\".window", "1m");

    @Inject
    DelayedQueue queue;

    @Inject
    ReactiveDelayedQueue reactive;

    @Inject
    Throttler throttler;

    @Test
    void blockingCallsThrowThePublicException() {
        assertThatThrownBy(() -> queue.scheduleWithId("orders", "order-1", "payload", Duration.ofMinutes(1)))
                .isInstanceOf(RedisUnavailableException.class).isInstanceOf(PacerRedisException.class);
        assertThatThrownBy(() -> queue.cancel("orders", "order-1")).isInstanceOf(RedisUnavailableException.class);
        assertThatThrownBy(() -> queue.size("orders")).isInstanceOf(PacerRedisException.class);
    }

    @Test
    void reactiveCallsFailWithThePublicException() {
        assertThatThrownBy(() -> reactive.schedule("orders", "payload", Duration.ofMinutes(1)).await()
                .atMost(Duration.ofSeconds(30))).isInstanceOf(RedisUnavailableException.class);
    }

    @Test
    void throttlerResetThrowsThePublicException() {
        assertThatThrownBy(() -> throttler.reset("exports", "acme")).isInstanceOf(PacerRedisException.class);
    }
}
