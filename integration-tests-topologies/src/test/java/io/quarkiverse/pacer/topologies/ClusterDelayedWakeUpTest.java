package io.quarkiverse.pacer.topologies;

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
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * On a local 3-master Redis Cluster with 6 shards and a 30s safety poll, messages scheduled 1s ahead on an idle queue
 * are delivered about 1s later: the producer's wake-up (pub/sub, published on the node of the message's shard) reaches
 * the consumer, not the poll.
 */
class ClusterDelayedWakeUpTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
            .overrideConfigKey("quarkus.pacer.delayed.shards", "6")
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
        for (int i = 0; i < 12; i++) {
            queue.scheduleWithId("timely", "hello-" + i, "hello", Duration.ofSeconds(1));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.receivedAtNanos.size() == 12);

        for (long receivedAt : consumer.receivedAtNanos) {
            Duration elapsed = Duration.ofNanos(receivedAt - scheduledAt);
            assertThat(elapsed).as("not before its due time").isGreaterThanOrEqualTo(Duration.ofMillis(990));
            assertThat(elapsed).as("well under the 30s poll interval").isLessThan(Duration.ofSeconds(10));
        }
        assertThat(consumers.stats("timely").maxLatenessMillis()).as("lateness seen by the claim")
                .isLessThan(1000);
    }
}
