package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code deliverNow} makes a message scheduled an hour ahead, or a dead letter, due at once; the consumer is woken
 * (the safety poll is an hour here, so only the wake-up can deliver). Unknown and in-flight messages are left alone.
 */
class DelayedDeliverNowTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Reminders.class, RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1h");

    @Singleton
    static class Reminders {
        final List<String> received = new CopyOnWriteArrayList<>();
        final CountDownLatch slowStarted = new CountDownLatch(1);
        final CountDownLatch releaseSlow = new CountDownLatch(1);

        @Delayed(value = "reminders", maxAttempts = 1)
        void remind(DelayedMessage<String> message) throws InterruptedException {
            received.add(message.id() + "#" + message.attempt() + ":" + message.payload());
            if (message.payload().equals("fail")) {
                throw new IllegalStateException("failing on purpose");
            }
            if (message.payload().equals("slow")) {
                slowStarted.countDown();
                releaseSlow.await(10, TimeUnit.SECONDS);
            }
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    ReactiveDelayedQueue reactiveQueue;

    @Inject
    Reminders reminders;

    @Test
    void deliversWaitingMessageNow() {
        queue.scheduleWithId("reminders", "r-1", "call mum", Duration.ofHours(1));
        assertThat(queue.size("reminders")).isEqualTo(1);

        assertThat(queue.deliverNow("reminders", "r-1")).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> reminders.received.contains("r-1#1:call mum"));
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("reminders") == 0);
        assertThat(queue.deliverNow("reminders", "r-1")).as("already delivered").isFalse();
        assertThat(queue.deliverNow("reminders", "unknown")).isFalse();
    }

    @Test
    void reactiveTwinDeliversNow() {
        reactiveQueue.scheduleWithId("reminders", "r-2", "water plants", Duration.ofHours(2)).await().indefinitely();
        assertThat(reactiveQueue.deliverNow("reminders", "r-2").await().indefinitely()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> reminders.received.contains("r-2#1:water plants"));
    }

    @Test
    void replaysDeadLetterWithAttemptsReset() {
        queue.scheduleWithId("reminders", "r-3", "fail", Duration.ZERO);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.deadLetterCount("reminders") == 1);
        assertThat(reminders.received).containsOnlyOnce("r-3#1:fail");

        assertThat(queue.deliverNow("reminders", "r-3")).isTrue();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> reminders.received.stream().filter("r-3#1:fail"::equals).count() == 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.deadLetterCount("reminders") == 1);
        assertThat(queue.deadLetters("reminders", 10).get(0).attempts()).isEqualTo(1);
        queue.purge("reminders", "r-3");
    }

    @Test
    void leavesInFlightMessageAlone() throws InterruptedException {
        queue.scheduleWithId("reminders", "r-4", "slow", Duration.ZERO);
        assertThat(reminders.slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(queue.deliverNow("reminders", "r-4")).isFalse();
        reminders.releaseSlow.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("reminders") == 0);
        assertThat(reminders.received).containsOnlyOnce("r-4#1:slow");
    }
}
