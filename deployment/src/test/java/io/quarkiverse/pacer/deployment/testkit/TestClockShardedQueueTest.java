package io.quarkiverse.pacer.deployment.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.test.PacerTestClock;
import io.quarkiverse.pacer.test.PacerTestQueues;
import io.quarkus.test.QuarkusUnitTest;

/** A queue in 3 shards delivers all of its 30-minute messages once the test clock has moved 30 minutes. */
class TestClockShardedQueueTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Timeouts.class))
            .overrideConfigKey("quarkus.pacer.delayed.shards", "3")
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1h");

    @Singleton // no client proxy: the test reads the field of the bean itself
    public static class Timeouts {
        final Set<String> expired = ConcurrentHashMap.newKeySet();

        @Delayed("sharded-timeout")
        void expire(DelayedMessage<String> message) {
            expired.add(message.id());
        }
    }

    @Inject
    Timeouts timeouts;

    @Inject
    DelayedQueue queue;

    @Inject
    PacerTestClock clock;

    @Inject
    PacerTestQueues queues;

    @Test
    void everyShardDeliversWhenTheClockMoves() {
        for (int i = 0; i < 30; i++) {
            queue.schedule("sharded-timeout", "x" + i, Duration.ofMinutes(30));
        }
        assertThat(queues.waiting("sharded-timeout")).hasSize(30);
        queues.awaitIdle();
        assertThat(timeouts.expired).isEmpty();

        clock.advance(Duration.ofMinutes(30));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(timeouts.expired).hasSize(30));
        queues.awaitIdle();
        assertThat(queue.size("sharded-timeout")).isZero();
    }
}
