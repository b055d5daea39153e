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
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/** A payload the consumer cannot decode is dead-lettered at once, without retries, and later messages still flow. */
class DelayedPoisonPayloadTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, Order.class, RedisInfo.class));

    public record Order(long id) {
    }

    @Singleton
    static class Consumer {
        final List<Long> received = new CopyOnWriteArrayList<>();

        @Delayed(value = "orders", maxAttempts = 5, backoff = "1s")
        void on(Order order) {
            received.add(order.id());
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    RedisDelayedQueue redisQueue;

    @Inject
    Consumer consumer;

    @Test
    void poisonGoesToDeadLettersAndTheConsumerKeepsGoing() {
        // Stored as another producer would (one that does not know the consumer's type): this application's own
        // schedule refuses a String that is not the JSON of an Order.
        redisQueue.scheduleText("orders", "poison", "this is not JSON", Duration.ZERO, null).await()
                .atMost(Duration.ofSeconds(10));
        queue.scheduleWithId("orders", "good-1", new Order(1), Duration.ofMillis(100));
        queue.scheduleWithId("orders", "good-2", new Order(2), Duration.ofMillis(200));

        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.received.size() == 2);
        assertThat(consumer.received).containsExactly(1L, 2L);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.deadLetterCount("orders") == 1);
        List<DeadLetter> letters = queue.deadLetters("orders", 10);
        assertThat(letters).extracting(DeadLetter::id).containsExactly("poison");
        // The handler never ran: no attempt is counted (burned).
        assertThat(letters.get(0).attempts()).as("handler attempts").isZero();
        assertThat(letters.get(0).reason()).startsWith("Undecodable payload: ");
        assertThat(letters.get(0).payloadText()).isEqualTo("this is not JSON");
        assertThat(queue.size("orders")).isZero();
    }
}
