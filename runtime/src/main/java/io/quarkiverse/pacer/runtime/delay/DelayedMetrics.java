package io.quarkiverse.pacer.runtime.delay;

import java.util.function.IntSupplier;
import java.util.function.Supplier;

import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumerStats;
import io.quarkiverse.pacer.runtime.delay.inspection.QueueDepth;

/**
 * Where delay queues report what they do. The default does nothing; with Micrometer present the build registers
 * {@link MicrometerDelayedMetrics}. Calls are cheap and never block.
 */
public interface DelayedMetrics {

    DelayedMetrics NONE = new DelayedMetrics() {
    };

    /** A producer of this instance stored a message. */
    default void scheduled(String queue) {
    }

    /** A producer of this instance stored {@code count} messages at once. */
    default void scheduled(String queue, int count) {
        for (int i = 0; i < count; i++) {
            scheduled(queue);
        }
    }

    /** Schedule on commit is on: {@code pending} counts the operations of committed transactions not yet stored. */
    default void afterCommitPending(IntSupplier pending) {
    }

    /** This instance started consuming {@code queue}; {@code stats} reads its counters. */
    default void consuming(String queue, Supplier<DelayedConsumerStats> stats) {
    }

    /** A message was claimed {@code millis} after its due time. */
    default void lateness(String queue, long millis) {
    }

    /** The latest counts of messages in each state of a consumed queue, refreshed at each safety poll. */
    default void depth(QueueDepth depth) {
    }

    /**
     * The latest counts of a queue found in Redis that no {@code @Delayed} method of this application consumes;
     * {@code null} when it no longer has any message.
     */
    default void unconsumed(String queue, QueueDepth depth) {
    }
}
