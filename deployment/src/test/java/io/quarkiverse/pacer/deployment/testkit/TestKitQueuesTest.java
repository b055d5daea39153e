package io.quarkiverse.pacer.deployment.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
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
import io.quarkiverse.pacer.test.QueuedMessage;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The kit's queue operations: waiting messages listed with id, due time, attempt and payload; deliverAllNow makes
 * every waiting message due and returns once the consumers handled them; purge and purgeAll delete waiting messages
 * and dead letters; awaitIdle names the busy queue when it gives up.
 */
class TestKitQueuesTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Reminders.class, Reminder.class))
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1h");

    public record Reminder(String who, int order) {
    }

    @Singleton
    static class Reminders {
        final List<String> sent = new CopyOnWriteArrayList<>();

        @Delayed(value = "reminders", maxAttempts = 1)
        void remind(DelayedMessage<Reminder> message) {
            sent.add(message.id() + ":" + message.payload().who());
            if (message.payload().who().equals("nobody")) {
                throw new IllegalStateException("failing on purpose");
            }
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Reminders reminders;

    @Inject
    PacerTestQueues queues;

    @Inject
    PacerTestClock clock;

    @BeforeEach
    void clean() {
        queues.purgeAll();
        reminders.sent.clear();
    }

    @Test
    void listsWaitingMessagesDueFirst() {
        Instant now = clock.now();
        String later = queue.schedule("reminders", new Reminder("bob", 2), Duration.ofHours(2));
        String sooner = queue.schedule("reminders", new Reminder("ann", 1), Duration.ofHours(1));

        List<QueuedMessage> waiting = queues.waiting("reminders");

        assertThat(waiting).extracting(QueuedMessage::id).containsExactly(sooner, later);
        assertThat(waiting).extracting(QueuedMessage::payload)
                .containsExactly("{\"who\":\"ann\",\"order\":1}", "{\"who\":\"bob\",\"order\":2}");
        assertThat(waiting).extracting(QueuedMessage::attempt).containsExactly(1, 1);
        assertThat(waiting).extracting(QueuedMessage::queue).containsOnly("reminders");
        assertThat(Duration.between(now, waiting.get(0).dueAt())).isBetween(Duration.ofHours(1),
                Duration.ofHours(1).plusMinutes(1));
        assertThat(queues.waiting("nothing-here")).isEmpty();
    }

    @Test
    void deliverAllNowReturnsOnceTheConsumersHandledEverything() {
        queue.schedule("reminders", "r-1", new Reminder("ann", 1), Instant.now().plus(Duration.ofHours(1)));
        queue.schedule("reminders", "r-2", new Reminder("bob", 2), Instant.now().plus(Duration.ofDays(1)));
        queue.schedule("reminders", "r-3", new Reminder("cid", 3), Instant.now().plus(Duration.ofDays(365)));

        assertThat(queues.deliverAllNow("reminders")).isEqualTo(3);

        assertThat(reminders.sent).containsExactlyInAnyOrder("r-1:ann", "r-2:bob", "r-3:cid");
        assertThat(queues.waiting("reminders")).isEmpty();
        assertThat(queue.size("reminders")).isZero();
        assertThat(queues.deliverAllNow("reminders")).isZero();
    }

    @Test
    void purgeDeletesWaitingMessagesAndDeadLetters() {
        queue.schedule("reminders", "dead", new Reminder("nobody", 0), Duration.ZERO);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.deadLetterCount("reminders") == 1);
        queue.schedule("reminders", "r-1", new Reminder("ann", 1), Duration.ofHours(1));
        queue.schedule("reminders", "r-2", new Reminder("bob", 2), Duration.ofHours(1));
        queue.schedule("other", "o-1", "x", Duration.ofHours(1));

        assertThat(queues.purge("reminders")).isEqualTo(3);

        assertThat(queues.waiting("reminders")).isEmpty();
        assertThat(queue.deadLetterCount("reminders")).isZero();
        assertThat(queue.size("other")).isEqualTo(1);
        assertThat(queues.purge("reminders")).isZero();

        assertThat(queues.purgeAll()).isPositive();
        assertThat(queue.size("other")).isZero();
    }

    @Test
    void awaitIdleNamesTheQueueNobodyConsumes() {
        queue.schedule("other", "o-1", "x", Duration.ZERO);
        assertThatThrownBy(() -> queues.deliverAllNow("other", Duration.ofSeconds(1)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("not idle after PT1S")
                .hasMessageContaining("queue=other");
    }
}
