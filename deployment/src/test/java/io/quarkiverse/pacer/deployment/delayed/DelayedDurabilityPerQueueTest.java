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
import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.pacer.delayed."<queue>".durability} overrides the default for one queue: on a Redis without replicas,
 * the queue set to {@code replicas} refuses {@code schedule} (not stored), while the others, {@code primary} by default,
 * store as usual.
 */
class DelayedDurabilityPerQueueTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.\"durable\".durability", "replicas")
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false")
            .withApplicationRoot(jar -> jar.addClasses(Consumers.class));

    @Singleton
    static class Consumers {
        @Delayed("durable")
        void durable(String payload) {
        }

        @Delayed("plain")
        void plain(String payload) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Test
    void onlyTheQueueSetToReplicasWaitsForOne() {
        assertThatThrownBy(() -> queue.scheduleWithId("durable", "m-1", "payload", Duration.ofMinutes(5)))
                .isInstanceOf(DurabilityUnavailableException.class)
                .hasMessageStartingWith("quarkus.pacer.delayed.durability=replicas: message m-1 of queue durable was"
                        + " not stored");
        queue.scheduleWithId("plain", "m-1", "payload", Duration.ofMinutes(5));
        queue.schedule("plain", "payload", Duration.ofMinutes(5));

        assertThat(queue.size("durable")).isZero();
        assertThat(queue.size("plain")).isEqualTo(2);
    }
}
