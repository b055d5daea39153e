package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.inspection.QueueDepth;
import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The depth of a queue tells messages due later ({@code scheduled}) from overdue ones ({@code due}, not yet claimed:
 * nothing consumes here) and how long the oldest overdue message has waited.
 */
class DelayedQueueDepthTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Timeouts.class, RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false");

    @Singleton
    static class Timeouts {
        @Delayed("depth-queue")
        void expire(String order) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    RedisDelayedQueue reactive;

    @Test
    void splitsWaitingIntoScheduledAndOverdue() {
        QueueDepth empty = reactive.depth("depth-queue").await().atMost(Duration.ofSeconds(5));
        assertThat(empty).isEqualTo(new QueueDepth("depth-queue", 0, 0, 0, 0, -1));

        queue.scheduleWithId("depth-queue", "later-1", "a", Duration.ofMinutes(30));
        queue.scheduleWithId("depth-queue", "later-2", "b", Duration.ofHours(2));
        Instant start = Instant.now();
        queue.scheduleWithId("depth-queue", "late-1", "c", start.minusSeconds(60));
        queue.scheduleWithId("depth-queue", "late-2", "d", start.minusSeconds(5));
        queue.scheduleWithId("depth-queue", "late-3", "e", Duration.ZERO);

        QueueDepth depth = reactive.depth("depth-queue").await().atMost(Duration.ofSeconds(5));
        long elapsed = Duration.between(start, Instant.now()).toMillis();
        assertThat(depth.scheduled()).isEqualTo(2);
        assertThat(depth.overdue()).isEqualTo(3);
        assertThat(depth.inFlight()).isZero();
        assertThat(depth.dead()).isZero();
        // Redis and the JVM share this machine's clock; allow for the calls in between.
        assertThat(depth.oldestOverdueMillis()).isBetween(60_000L - 50, 60_000L + elapsed + 50);
        assertThat(queue.size("depth-queue")).isEqualTo(5);
    }
}
