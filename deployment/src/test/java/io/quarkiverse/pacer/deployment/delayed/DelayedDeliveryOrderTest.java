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
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ScheduledMessage;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/** Messages scheduled out of order are delivered in due-time order, each once, and leave nothing behind. */
class DelayedDeliveryOrderTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Delayed("ordered")
        void on(String payload) {
            received.add(payload);
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Test
    void deliversByDueTime() {
        // Stored together (one script call), so no message can be delivered before an earlier one is stored, however
        // slowly the machine runs; out of order in the call, and due 300 ms apart.
        Instant base = Instant.now();
        queue.scheduleAll("ordered", List.of(
                ScheduledMessage.of("3", "third", base.plusMillis(900)),
                ScheduledMessage.of("1", "first", base.plusMillis(300)),
                ScheduledMessage.of("2", "second", base.plusMillis(600)),
                ScheduledMessage.of("0", "zeroth", base)));

        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.received.size() == 4);
        assertThat(consumer.received).containsExactly("zeroth", "first", "second", "third");
        assertThat(queue.size("ordered")).isZero();
        assertThat(queue.deadLetterCount("ordered")).isZero();
    }
}
