package io.quarkiverse.pacer.optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import io.smallrye.reactive.messaging.memory.InMemorySink;

/**
 * {@code quarkus.pacer.delayed."<queue>".forward-to}: due messages go to a Quarkus Messaging channel instead of a
 * {@code @Delayed} method. Through the in-memory connector (which acknowledges what it receives) they arrive with
 * their payload as stored and a {@link DelayedMessage} metadata, and are acknowledged in Redis; a channel whose
 * consumer nacks gets the message again with backoff, and dead letters after {@code max-attempts}.
 */
class DelayedForwardToChannelTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(PickyBroker.class, OrderRef.class))
            .overrideConfigKey("quarkus.pacer.delayed.\"handoff\".forward-to", "broker")
            .overrideConfigKey("mp.messaging.outgoing.broker.connector", "smallrye-in-memory")
            .overrideConfigKey("quarkus.pacer.delayed.\"handoff-picky\".forward-to", "picky")
            .overrideConfigKey("quarkus.pacer.delayed.\"handoff-picky\".backoff", "50ms")
            .overrideConfigKey("quarkus.pacer.delayed.\"handoff-picky\".max-attempts", "3");

    public record OrderRef(long id) {
    }

    /** Consumes channel "picky" in the application: nacks first attempts, and every attempt of "always-nack". */
    @Singleton
    static class PickyBroker {
        final List<String> attempts = new CopyOnWriteArrayList<>();

        @Incoming("picky")
        CompletionStage<Void> receive(Message<String> message) {
            DelayedMessage<?> delayed = message.getMetadata(DelayedMessage.class).orElseThrow();
            attempts.add(delayed.id() + "#" + delayed.attempt());
            if (message.getPayload().equals("always-nack") || delayed.attempt() == 1) {
                return message.nack(new IllegalStateException("broker unavailable"));
            }
            return message.ack();
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    @Any
    InMemoryConnector connector;

    @Inject
    PickyBroker picky;

    @Inject
    DelayedConsumers consumers;

    @Test
    void ackedMessagesAreAcknowledgedInRedis() {
        InMemorySink<Object> broker = connector.sink("broker");
        queue.scheduleWithId("handoff", "text-1", "plain text", Duration.ZERO);
        queue.scheduleWithId("handoff", "json-1", new OrderRef(42), Duration.ZERO);
        queue.scheduleWithId("handoff", "bytes-1", new byte[] { 1, 2, 3 }, Duration.ZERO);

        await().atMost(Duration.ofSeconds(10)).until(() -> broker.received().size() == 3);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("handoff") == 0);
        Map<String, Object> payloads = new java.util.TreeMap<>();
        for (Message<Object> message : broker.received()) {
            DelayedMessage<?> delayed = message.getMetadata(DelayedMessage.class).orElseThrow();
            assertThat(delayed.queue()).isEqualTo("handoff");
            assertThat(delayed.attempt()).isEqualTo(1);
            payloads.put(delayed.id(), message.getPayload());
        }
        assertThat(payloads).containsOnlyKeys("bytes-1", "json-1", "text-1");
        assertThat(payloads.get("text-1")).isEqualTo("plain text");
        assertThat(payloads.get("json-1")).isEqualTo("{\"id\":42}");
        assertThat((byte[]) payloads.get("bytes-1")).containsExactly(1, 2, 3);
        assertThat(queue.deadLetterCount("handoff")).isZero();
        assertThat(consumers.stats("handoff").delivered()).isEqualTo(3);
    }

    @Test
    void nackedMessagesAreRetriedWithBackoffThenDeadLettered() {
        queue.scheduleWithId("handoff-picky", "flaky", "second time lucky", Duration.ZERO);
        queue.scheduleWithId("handoff-picky", "broken", "always-nack", Duration.ZERO);

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.deadLetterCount("handoff-picky") == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.size("handoff-picky") == 0);
        assertThat(picky.attempts).containsExactlyInAnyOrder("flaky#1", "flaky#2", "broken#1", "broken#2", "broken#3");
        List<DeadLetter> dead = queue.deadLetters("handoff-picky", 10);
        assertThat(dead).singleElement().satisfies(letter -> {
            assertThat(letter.id()).isEqualTo("broken");
            assertThat(letter.reason()).contains("broker unavailable");
        });
        assertThat(consumers.stats("handoff-picky").retried()).isEqualTo(3);
    }
}
