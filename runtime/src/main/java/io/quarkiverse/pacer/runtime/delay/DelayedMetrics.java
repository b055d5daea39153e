package io.quarkiverse.pacer.runtime.delay;

import java.util.function.Supplier;

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

    /** This instance started consuming {@code queue}; {@code stats} reads its counters. */
    default void consuming(String queue, Supplier<DelayedConsumerStats> stats) {
    }

    /** A message was claimed {@code millis} after its due time. */
    default void lateness(String queue, long millis) {
    }

    /** The latest counts of messages in each state, refreshed at each safety poll. */
    default void depth(String queue, long due, long inFlight, long dead) {
    }
}
