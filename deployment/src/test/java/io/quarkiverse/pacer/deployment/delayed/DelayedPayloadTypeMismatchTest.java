package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A payload that is not of the type the queue's consumer in this application takes fails {@code schedule} at once,
 * naming both types (a {@code Thread} was once stored and "delivered" as an empty {@code OrderRef}), and so does a
 * {@code String} that is not the JSON of the consumer's type (it was accepted and dead-lettered); a payload Jackson
 * cannot serialize fails without Jackson's advice to disable {@code FAIL_ON_EMPTY_BEANS}.
 */
class DelayedPayloadTypeMismatchTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(OrderTimeouts.class, OrderRef.class))
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false");

    public record OrderRef(long id) {
    }

    @Singleton
    static class OrderTimeouts {
        @Delayed("order-timeout")
        void expire(OrderRef order) {
        }

        @Delayed("texts")
        void text(String text) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Test
    void wrongPayloadTypeFailsSchedule() {
        assertThatThrownBy(() -> queue.schedule("order-timeout", Thread.currentThread(), Duration.ofMinutes(30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Payload of type java.lang.Thread cannot be scheduled on delay queue \"order-timeout\": its"
                        + " consumer @Delayed(\"order-timeout\") declared on " + OrderTimeouts.class.getName()
                        + "#expire() takes " + OrderRef.class.getName() + "; schedule a " + OrderRef.class.getName()
                        + " (or its JSON as a String)");
        assertThatThrownBy(() -> queue.schedule("texts", new OrderRef(1), Duration.ofMinutes(30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Payload of type " + OrderRef.class.getName())
                .hasMessageContaining("takes java.lang.String");
        // A String for a consumer of another type is that type's JSON: it must parse as one.
        assertThatThrownBy(() -> queue.schedule("order-timeout", "just a string", Duration.ofMinutes(30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Payload of type java.lang.String cannot be scheduled on delay queue"
                        + " \"order-timeout\": its consumer @Delayed(\"order-timeout\") declared on "
                        + OrderTimeouts.class.getName() + "#expire() takes " + OrderRef.class.getName()
                        + ", so a String is taken as its JSON, and this one is not a JSON " + OrderRef.class.getName()
                        + " (")
                .hasMessageEndingWith("); schedule a " + OrderRef.class.getName() + " or its JSON as a String");
        assertThatThrownBy(() -> queue.scheduleWithId("order-timeout", "o-1", "{\"id\":\"forty-two\"}",
                Duration.ofMinutes(30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a JSON " + OrderRef.class.getName());
        assertThat(queue.size("order-timeout")).isZero();
        assertThat(queue.size("texts")).isZero();

        // The consumer's own type, and its JSON as a String, are accepted.
        queue.schedule("order-timeout", new OrderRef(42), Duration.ofMinutes(30));
        queue.schedule("order-timeout", "{\"id\":43}", Duration.ofMinutes(30));
        queue.schedule("texts", "hello", Duration.ofMinutes(30));
        assertThat(queue.size("order-timeout")).isEqualTo(2);
        assertThat(queue.size("texts")).isEqualTo(1);
    }

    @Test
    void unserializablePayloadGetsNoJacksonAdvice() {
        assertThatThrownBy(() -> queue.schedule("no-consumer-here", new Object(), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Delayed message payload of type java.lang.Object cannot be serialized to JSON")
                .hasMessageContaining("No serializer found for class java.lang.Object")
                .hasMessageNotContaining("FAIL_ON_EMPTY_BEANS")
                .hasMessageNotContaining("disable");
    }
}
