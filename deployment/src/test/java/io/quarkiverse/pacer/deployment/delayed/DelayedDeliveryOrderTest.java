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

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
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
        queue.schedule("ordered", "third", Duration.ofMillis(900));
        queue.schedule("ordered", "first", Duration.ofMillis(300));
        queue.schedule("ordered", "second", Duration.ofMillis(600));
        queue.schedule("ordered", "zeroth", Duration.ZERO);
        assertThat(consumer.received).doesNotContain("first", "second", "third");

        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.received.size() == 4);
        assertThat(consumer.received).containsExactly("zeroth", "first", "second", "third");
        assertThat(queue.size("ordered")).isZero();
        assertThat(queue.deadLetterCount("ordered")).isZero();
    }
}
