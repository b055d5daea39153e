package io.quarkiverse.pacer.deployment.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.test.PacerTestClock;
import io.quarkiverse.pacer.test.PacerTestQueues;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The test clock moves the delay queues' time: a message due in 30 minutes is delivered once the clock has moved 30
 * minutes (not at 29), a failed message's retry comes when its backoff (and jitter) has passed on the clock, and a message
 * scheduled after the clock moved is due relative to the moved time. The safety poll is an hour, so only the clock's
 * wake-up can deliver.
 */
class TestClockDelayedTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Timeouts.class))
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1h");

    @Singleton
    static class Timeouts {
        final List<String> expired = new CopyOnWriteArrayList<>();

        @Delayed(value = "order-timeout", maxAttempts = 3, backoff = "10m")
        void expire(DelayedMessage<String> message) {
            expired.add(message.payload() + "#" + message.attempt());
            if (message.payload().startsWith("fail-once") && message.attempt() == 1) {
                throw new IllegalStateException("failing on purpose");
            }
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Timeouts timeouts;

    @Inject
    PacerTestClock clock;

    @Inject
    PacerTestQueues queues;

    @BeforeEach
    void clean() {
        clock.reset();
        queues.purgeAll();
        timeouts.expired.clear();
    }

    @Test
    void thirtyMinuteTimeoutFiresWhenTheClockHasMovedThirtyMinutes() {
        queue.schedule("order-timeout", "order-42", Duration.ofMinutes(30));

        clock.advance(Duration.ofMinutes(29));
        queues.awaitIdle();
        assertThat(timeouts.expired).isEmpty();
        assertThat(queue.size("order-timeout")).isEqualTo(1);

        clock.advance(Duration.ofMinutes(1));
        await().atMost(Duration.ofSeconds(5)).until(() -> timeouts.expired.size() == 1);
        queues.awaitIdle();
        assertThat(timeouts.expired).containsExactly("order-42#1");
        assertThat(queue.size("order-timeout")).isZero();
    }

    @Test
    void retryComesWhenItsBackoffHasPassedOnTheClock() {
        queue.schedule("order-timeout", "fail-once", Duration.ZERO);
        await().atMost(Duration.ofSeconds(5)).until(() -> timeouts.expired.size() == 1);
        queues.awaitIdle();
        assertThat(queues.waiting("order-timeout")).singleElement()
                .satisfies(waiting -> assertThat(waiting.attempt()).isEqualTo(2));

        clock.advance(Duration.ofMinutes(12)); // the backoff, plus its jitter of up to 20%
        await().atMost(Duration.ofSeconds(5)).until(() -> timeouts.expired.size() == 2);
        queues.awaitIdle();
        assertThat(timeouts.expired).containsExactly("fail-once#1", "fail-once#2");
        assertThat(queue.size("order-timeout")).isZero();
        assertThat(queue.deadLetterCount("order-timeout")).isZero();
    }

    @Test
    void messageScheduledAfterTheClockMovedIsDueRelativeToTheMovedTime() {
        clock.advance(Duration.ofDays(1));
        queue.schedule("order-timeout", "order-7", Duration.ofMinutes(30));
        assertThat(queues.waiting("order-timeout")).singleElement().satisfies(waiting -> assertThat(
                Duration.between(clock.now(), waiting.dueAt())).isBetween(Duration.ofMinutes(29), Duration.ofMinutes(30)));

        queues.awaitIdle();
        assertThat(timeouts.expired).isEmpty();
        clock.advance(Duration.ofMinutes(30));
        await().atMost(Duration.ofSeconds(5)).until(() -> timeouts.expired.size() == 1);
        assertThat(timeouts.expired).containsExactly("order-7#1");
    }
}
