package io.quarkiverse.pacer.deployment.delayed;

import static io.quarkiverse.pacer.test.support.RedisCommands.hasMessage;
import static io.quarkiverse.pacer.test.support.RedisCommands.messagesKey;
import static io.quarkiverse.pacer.test.support.RedisCommands.send;
import static io.quarkiverse.pacer.test.support.RedisCommands.setKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code backoff = 0s} with many attempts: the 1025th failure once computed {@code 0 * 2^1024 = NaN}, the retry's
 * {@code ZADD} failed after the message had left the in-flight set, and the message was stranded for good. The retry
 * delay stays finite for any allowed configuration, and the message is delivered again.
 */
class DelayedZeroBackoffManyAttemptsTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisCommands.class))
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "200ms");

    @Singleton
    static class Consumer {
        final List<Integer> attempts = new CopyOnWriteArrayList<>();

        @Delayed(value = "zero-backoff", maxAttempts = 2000, backoff = "0s")
        void on(DelayedMessage<String> message) {
            attempts.add(message.attempt());
            if (attempts.size() == 1) {
                throw new IllegalStateException("first delivery fails");
            }
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    PacerRedis redis;

    @Inject
    Consumer consumer;

    @Test
    void the1025thFailureIsRetried() {
        queue.scheduleWithId("zero-backoff", "m", "payload", Duration.ofHours(1));
        // As if 1024 attempts had failed already; then make it due now.
        String stored = send(redis, "HGET", messagesKey("zero-backoff"), "m").toString();
        // <encoding><due>:<attempts>:<redeliveries>:<payload>
        send(redis, "HSET", messagesKey("zero-backoff"), "m", stored.replaceFirst("^([a-z]-?\\d+):0:", "$1:1024:"));
        send(redis, "ZADD", setKey("zero-backoff", "due"), 0, "m");

        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.attempts.size() == 2);
        assertThat(consumer.attempts).containsExactly(1025, 1026);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("zero-backoff") == 0);
        assertThat(hasMessage(redis, "zero-backoff", "m")).isFalse();
        assertThat(queue.deadLetterCount("zero-backoff")).isZero();
    }
}
