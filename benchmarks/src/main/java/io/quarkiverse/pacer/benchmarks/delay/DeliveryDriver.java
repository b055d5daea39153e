package io.quarkiverse.pacer.benchmarks.delay;

import java.time.Duration;

import org.HdrHistogram.Histogram;

/**
 * One delay queue under test in the delivery rows (end to end, lateness): its producers schedule, its consumers
 * deliver, and the driver counts and times the deliveries, whether they run in this JVM or in another process.
 */
interface DeliveryDriver extends AutoCloseable {

    /** Starts {@code producers} scheduling messages due now for {@code duration}; returns at once. */
    void startProducing(int producers, Duration duration);

    /** Messages {@link #startProducing} has scheduled so far. */
    long scheduled();

    /** Waits until the producers {@link #startProducing} started are done. */
    void awaitProducers() throws InterruptedException;

    /**
     * Schedules {@code messages} messages with {@code producers}, each due at a uniformly random instant of the
     * {@code spreadMicros} that start {@code leadMicros} from now; returns when all are stored.
     */
    Spread scheduleSpread(int messages, int producers, long leadMicros, long spreadMicros) throws InterruptedException;

    long delivered();

    /** Deliveries before their due time (counted, and recorded as 0 lateness). */
    long early();

    /** Delivery time minus due time of every delivery since {@link #reset()}, in microseconds. */
    Histogram lateness();

    void reset();

    /** CPU time so far of the processes running the producers and consumers, in nanoseconds. */
    long cpuNanos();

    /** When the spread messages were scheduled and the first could be due, in epoch microseconds. */
    record Spread(long firstDueMicros, long startedMicros, long scheduledByMicros) {
    }

    @Override
    default void close() {
    }
}
