package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
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
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/** Cancel removes a message for good; scheduling an existing id reschedules it; scheduleIfAbsent keeps the first. */
class DelayedCancelRescheduleTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Delayed("reminders")
        void on(DelayedMessage<String> message) {
            received.add(message.id() + "=" + message.payload());
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    PacerRedis redis;

    @Test
    void cancelRescheduleAndIfAbsent() {
        // cancel: the message is gone, with its stored payload
        // Due in an hour, so no delivery can race the cancel however slow the machine: a failed cancel would leave it
        // waiting, and the queue is empty at the end.
        queue.scheduleWithId("reminders", "cancelled", "never", Duration.ofHours(1));
        assertThat(exists("cancelled")).isTrue();
        assertThat(queue.cancel("reminders", "cancelled")).isTrue();
        assertThat(queue.cancel("reminders", "cancelled")).isFalse();
        assertThat(exists("cancelled")).isFalse();

        // reschedule: same id, new due time and payload; delivered once, with the new payload
        queue.scheduleWithId("reminders", "moved", "old", Instant.now().plus(Duration.ofHours(1)));
        queue.scheduleWithId("reminders", "moved", "new", Duration.ofSeconds(1));
        assertThat(queue.size("reminders")).isEqualTo(1);

        // ifAbsent: the second call changes nothing
        assertThat(queue.scheduleIfAbsent("reminders", "once", "first", Duration.ofMillis(1500))).isTrue();
        assertThat(queue.scheduleIfAbsent("reminders", "once", "second", Duration.ZERO)).isFalse();
        assertThat(queue.size("reminders")).isEqualTo(2);

        queue.scheduleWithId("reminders", "marker", "last", Duration.ofMillis(2500));
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.received.contains("marker=last"));
        assertThat(consumer.received).containsExactly("moved=new", "once=first", "marker=last");
        assertThat(queue.size("reminders")).isZero();
        assertThat(exists("moved")).as("acked message deleted").isFalse();
    }

    /** Whether the message is stored: a field of the queue's messages hash. */
    private boolean exists(String id) {
        return redis.send(Request.cmd(Command.HEXISTS).arg("pacer:d:{reminders}:messages").arg(id)).await()
                .atMost(Duration.ofSeconds(5)).toInteger() == 1;
    }
}
