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
 * With {@code durability=replicas} and a Redis without replicas, {@code schedule} fails clearly once
 * {@code durability-timeout} has passed without a replica's acknowledgement; the primary kept the message.
 */
class DelayedDurabilityWithoutReplicaTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.durability", "replicas")
            .overrideConfigKey("quarkus.pacer.delayed.durability-timeout", "200ms")
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class));

    @Singleton
    static class Consumer {
        @Delayed("durable")
        void on(String payload) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Test
    void scheduleFailsWhenNoReplicaAcknowledges() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> queue.scheduleWithId("durable", "m-1", "payload", Duration.ofMinutes(5)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("quarkus.pacer.delayed.durability=replicas: message m-1 of queue durable stored by the"
                        + " primary but not confirmed by a replica within PT0.2S"
                        + " (quarkus.pacer.delayed.durability-timeout); it may be delivered, or lost by a failover."
                        + " Check the replicas (INFO replication) and schedule it again with the same id: scheduling"
                        + " by id is an upsert");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(queue.size("durable")).isEqualTo(1);
    }
}
