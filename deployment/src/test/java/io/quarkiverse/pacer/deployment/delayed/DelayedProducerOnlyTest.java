package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/** With quarkus.pacer.delayed.consumer.enabled=false an instance schedules but never claims. */
class DelayedProducerOnlyTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final AtomicInteger calls = new AtomicInteger();

        @Delayed("produced")
        void on(String payload) {
            calls.incrementAndGet();
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    DelayedConsumers consumers;

    @Test
    void schedulesWithoutConsuming() {
        assertThat(consumers.consumedQueues()).isEmpty();
        queue.scheduleWithId("produced", "p-1", "due now", Duration.ZERO);
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
                .until(() -> consumer.calls.get() == 0 && queue.size("produced") == 1);
    }
}
