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
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With a 30s safety poll, a message scheduled 1s ahead on an idle queue is delivered about 1s later: the producer's
 * wake-up and the loop's due-time timer deliver it, not the poll.
 */
class DelayedLatenessTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "30s")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final List<Long> receivedAtNanos = new CopyOnWriteArrayList<>();

        @Delayed("timely")
        void on(String payload) {
            receivedAtNanos.add(System.nanoTime());
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    DelayedConsumers consumers;

    @Test
    void deliveredAtItsDueTimeNotAtThePoll() {
        // The idle loop has claimed once at startup and sleeps: nothing is due, no timer is armed.
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.stats("timely").claims() >= 1);

        long scheduledAt = System.nanoTime();
        queue.schedule("timely", "hello", Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.receivedAtNanos.size() == 1);

        Duration elapsed = Duration.ofNanos(consumer.receivedAtNanos.get(0) - scheduledAt);
        assertThat(elapsed).as("not before its due time").isGreaterThanOrEqualTo(Duration.ofMillis(990));
        assertThat(elapsed).as("well under the 30s poll interval").isLessThan(Duration.ofSeconds(10));
        assertThat(consumers.stats("timely").maxLatenessMillis()).as("lateness seen by the claim")
                .isLessThan(1000);
    }
}
