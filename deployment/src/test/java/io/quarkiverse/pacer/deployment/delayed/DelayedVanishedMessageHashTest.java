package io.quarkiverse.pacer.deployment.delayed;

import static io.quarkiverse.pacer.test.support.RedisCommands.hasMessage;
import static io.quarkiverse.pacer.test.support.RedisCommands.messagesKey;
import static io.quarkiverse.pacer.test.support.RedisCommands.send;
import static io.quarkiverse.pacer.test.support.RedisCommands.setKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A dead letter whose message is gone (evicted with the shard's messages hash, deleted by hand): replaying it creates
 * no message without payload and heals the dead-letter set; an upsert of the same id leaves no stale dead-letter entry
 * behind.
 */
class DelayedVanishedMessageHashTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisCommands.class));

    @Singleton
    static class Consumer {
        @Delayed(value = "vanish", maxAttempts = 1)
        void on(String payload) {
            throw new IllegalStateException("always fails");
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    PacerRedis redis;

    @Test
    void replayOfAVanishedDeadLetterCreatesNothing() {
        deadLetterWithoutHash("a");

        assertThat(queue.replay("vanish", "a")).isFalse();
        assertThat(hasMessage(redis, "vanish", "a")).as("message").isFalse();
        assertThat(send(redis, "ZSCORE", setKey("vanish", "dead"), "a")).as("dead-letter entry").isNull();
        assertThat(send(redis, "ZSCORE", setKey("vanish", "due"), "a")).as("due entry").isNull();

        deadLetterWithoutHash("a2");
        assertThat(queue.replayDeadLetters("vanish")).isZero();
        assertThat(hasMessage(redis, "vanish", "a2")).as("message").isFalse();
        assertThat(queue.deadLetterCount("vanish")).isZero();
        assertThat(queue.size("vanish")).isZero();
    }

    @Test
    void upsertAfterAVanishedHashLeavesNoStaleDeadLetter() {
        deadLetterWithoutHash("b");

        queue.scheduleWithId("vanish", "b", "again", Duration.ofHours(1));
        assertThat(send(redis, "ZSCORE", setKey("vanish", "dead"), "b")).as("dead-letter entry").isNull();
        assertThat(queue.deadLetterCount("vanish")).isZero();
        assertThat(queue.size("vanish")).isEqualTo(1);
        queue.cancel("vanish", "b");
    }

    private void deadLetterWithoutHash(String id) {
        queue.scheduleWithId("vanish", id, "payload", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> send(redis, "ZSCORE", setKey("vanish", "dead"), id) != null);
        send(redis, "HDEL", messagesKey("vanish"), id);
    }
}
