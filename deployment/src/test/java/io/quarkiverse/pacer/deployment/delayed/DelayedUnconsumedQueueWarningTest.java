package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.logging.Level;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.producer.UnconsumedQueues;
import io.quarkiverse.pacer.test.support.LogCapture;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A typo in a queue name: scheduling on a queue no {@code @Delayed} method of this application consumes logs one WARN
 * per queue, naming it and the known queues; scheduling on a consumed queue logs nothing.
 */
class DelayedUnconsumedQueueWarningTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Timeouts.class, Reminders.class, RedisInfo.class,
                    LogCapture.class));

    @Singleton
    static class Timeouts {
        @Delayed("order-timeout")
        void expire(String order) {
        }
    }

    @Singleton
    static class Reminders {
        @Delayed("reminders")
        void remind(String text) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Test
    void warnsOncePerUnconsumedQueue() {
        List<String> warnings;
        try (LogCapture log = LogCapture.of(UnconsumedQueues.class, Level.WARNING)) {
            queue.scheduleWithId("order-timeout", "o-1", "order 1", Duration.ofHours(1));
            queue.scheduleWithId("order-timeuot", "o-2", "order 2", Duration.ofHours(1));
            queue.scheduleWithId("order-timeuot", "o-3", "order 3", Duration.ofHours(1));
            queue.scheduleWithId("remindres", "r-1", "call mum", Duration.ofHours(1));
            queue.scheduleWithId("reminders", "r-2", "water plants", Duration.ofHours(1));
            warnings = List.copyOf(log.messages());
        }
        assertThat(queue.size("order-timeuot")).isEqualTo(2);
        assertThat(warnings).containsExactly(
                "Scheduled a message on delay queue \"order-timeuot\", which no @Delayed method of this application"
                        + " consumes (its queues: order-timeout, reminders): the message waits until an application"
                        + " consumes \"order-timeuot\". Check the queue name; if another application consumes this"
                        + " queue, ignore this warning",
                "Scheduled a message on delay queue \"remindres\", which no @Delayed method of this application"
                        + " consumes (its queues: order-timeout, reminders): the message waits until an application"
                        + " consumes \"remindres\". Check the queue name; if another application consumes this"
                        + " queue, ignore this warning");
    }
}
