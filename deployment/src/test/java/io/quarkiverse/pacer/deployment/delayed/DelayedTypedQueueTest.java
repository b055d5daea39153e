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
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueueName;
import io.quarkiverse.pacer.delay.ReactiveTypedDelayedQueue;
import io.quarkiverse.pacer.delay.TypedDelayedQueue;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Typed queue handles, blocking and reactive, injected with {@code @DelayedQueueName}, deliver to the queue's consumer
 * (one taking the payload type, one taking {@code DelayedMessage<T>}).
 */
class DelayedTypedQueueTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(OrderRef.class, Consumers.class, Producer.class))
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1h");

    public record OrderRef(long id) {
    }

    @Singleton
    static class Consumers {
        final List<Long> expired = new CopyOnWriteArrayList<>();
        final List<String> reminded = new CopyOnWriteArrayList<>();

        @Delayed("typed-orders")
        void expire(OrderRef order) {
            expired.add(order.id());
        }

        @Delayed("typed-reminders")
        void remind(DelayedMessage<String> message) {
            reminded.add(message.id() + ":" + message.payload());
        }
    }

    @Singleton
    static class Producer {
        @Inject
        @DelayedQueueName("typed-orders")
        TypedDelayedQueue<OrderRef> orders;

        final ReactiveTypedDelayedQueue<String> reminders;

        Producer(@DelayedQueueName("typed-reminders") ReactiveTypedDelayedQueue<String> reminders) {
            this.reminders = reminders;
        }
    }

    @Inject
    Producer producer;

    @Inject
    Consumers consumers;

    @Test
    void blockingHandleSchedulesOnItsQueue() {
        assertThat(producer.orders.queue()).isEqualTo("typed-orders");
        assertThat(producer.orders.scheduleWithId("order-7", new OrderRef(7), Duration.ofHours(1))).isEqualTo("order-7");
        assertThat(producer.orders.size()).isEqualTo(1);
        assertThat(producer.orders.deliverNow("order-7")).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.expired.contains(7L));
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.orders.size() == 0);

        producer.orders.scheduleWithId("order-8", new OrderRef(8), Duration.ofHours(1));
        assertThat(producer.orders.cancel("order-8")).isTrue();
        assertThat(producer.orders.size()).isZero();
        assertThat(consumers.expired).containsExactly(7L);
    }

    @Test
    void reactiveHandleSchedulesOnItsQueue() {
        assertThat(producer.reminders.queue()).isEqualTo("typed-reminders");
        producer.reminders.scheduleWithId("r-1", "call mum", Duration.ofHours(1)).await().atMost(Duration.ofSeconds(10));
        assertThat(producer.reminders.deliverNow("r-1").await().atMost(Duration.ofSeconds(10))).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.reminded.contains("r-1:call mum"));
        assertThat(consumers.reminded).containsExactly("r-1:call mum");
    }
}
