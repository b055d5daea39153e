package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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

/** A producer-only instance schedules on queues other applications consume: no typo warning. */
class DelayedUnconsumedQueueProducerOnlyTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Timeouts.class, RedisInfo.class, LogCapture.class))
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false");

    @Singleton
    static class Timeouts {
        @Delayed("order-timeout")
        void expire(String order) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Test
    void schedulesOnOtherApplicationsQueue() {
        try (LogCapture log = LogCapture.of(UnconsumedQueues.class, Level.WARNING)) {
            queue.scheduleWithId("invoices", "i-1", "invoice 1", Duration.ofHours(1));
            assertThat(log.messages()).isEmpty();
        }
        assertThat(queue.size("invoices")).isEqualTo(1);
    }
}
