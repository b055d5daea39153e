package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/** A failing handler is retried with backoff up to maxAttempts, then dead-lettered; replay and purge work. */
class DelayedRetryDeadLetterReplayTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, Order.class, RedisInfo.class));

    public record Order(long id, String customer) {
    }

    @Singleton
    static class Consumer {
        final List<String> attempts = new CopyOnWriteArrayList<>();
        volatile boolean fixed;

        @Delayed(value = "payments", maxAttempts = 3, backoff = "50ms")
        void on(DelayedMessage<Order> message) {
            attempts.add(message.id() + "#" + message.attempt() + ":" + message.payload().customer());
            if (!fixed) {
                throw new IllegalStateException("payment service down for order " + message.payload().id());
            }
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    PacerRedis redis;

    @Test
    void retriesThenDeadLettersThenReplays() {
        queue.scheduleWithId("payments", "o-1", new Order(1, "ada"), Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.deadLetterCount("payments") == 1);
        assertThat(consumer.attempts).containsExactly("o-1#1:ada", "o-1#2:ada", "o-1#3:ada");
        assertThat(queue.size("payments")).isZero();

        List<DeadLetter> letters = queue.deadLetters("payments", 10);
        assertThat(letters).hasSize(1);
        DeadLetter letter = letters.get(0);
        assertThat(letter.id()).isEqualTo("o-1");
        assertThat(letter.queue()).isEqualTo("payments");
        assertThat(letter.attempts()).isEqualTo(3);
        assertThat(letter.reason())
                .isEqualTo("java.lang.IllegalStateException: payment service down for order 1");
        assertThat(letter.payloadText()).isEqualTo("{\"id\":1,\"customer\":\"ada\"}");

        consumer.fixed = true;
        assertThat(queue.replay("payments", "o-1")).isTrue();
        assertThat(queue.replay("payments", "o-1")).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.attempts.size() == 4);
        assertThat(consumer.attempts.get(3)).isEqualTo("o-1#1:ada");
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("payments") == 0);
        assertThat(queue.deadLetterCount("payments")).isZero();
        assertThat(exists("o-1")).isFalse();

        // purge: two more dead letters, deleted with their hashes
        consumer.fixed = false;
        queue.scheduleWithId("payments", "o-2", new Order(2, "bob"), Duration.ZERO);
        queue.scheduleWithId("payments", "o-3", new Order(3, "cy"), Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.deadLetterCount("payments") == 2);
        assertThat(queue.purge("payments", "o-2")).isTrue();
        assertThat(queue.purgeDeadLetters("payments")).isEqualTo(1);
        assertThat(queue.deadLetterCount("payments")).isZero();
        assertThat(exists("o-2")).isFalse();
        assertThat(exists("o-3")).isFalse();
        assertThat(queue.replayDeadLetters("payments")).isZero();
    }

    /** Whether the message is stored: a field of the queue's messages hash. */
    private boolean exists(String id) {
        return redis.send(Request.cmd(Command.HEXISTS).arg("pacer:d:{payments}:messages").arg(id)).await()
                .atMost(Duration.ofSeconds(5)).toInteger() == 1;
    }
}
