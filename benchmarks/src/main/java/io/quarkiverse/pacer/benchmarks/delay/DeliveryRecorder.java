package io.quarkiverse.pacer.benchmarks.delay;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Singleton;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Counts deliveries and their lateness (delivery time minus due time) for whichever consumer is being measured;
 * {@link #reset()} between scenarios.
 */
@Singleton
public class DeliveryRecorder {

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong early = new AtomicLong();
    private volatile long lastDeliveryMicros;
    private volatile Histogram lateness = new ConcurrentHistogram(HIGHEST_MICROS, 2);

    public void reset() {
        lateness = new ConcurrentHistogram(HIGHEST_MICROS, 2);
        delivered.set(0);
        early.set(0);
        lastDeliveryMicros = 0;
    }

    /** One delivery of a message that was due at {@code dueAtMicros} (epoch microseconds). */
    public void delivered(long dueAtMicros) {
        long now = nowMicros();
        long late = now - dueAtMicros;
        if (late < 0) {
            early.incrementAndGet();
            late = 0;
        }
        lateness.recordValue(Math.min(late, HIGHEST_MICROS));
        lastDeliveryMicros = now;
        delivered.incrementAndGet();
    }

    public void delivered(Instant dueAt) {
        delivered(TimeUnit.SECONDS.toMicros(dueAt.getEpochSecond()) + dueAt.getNano() / 1000);
    }

    public long count() {
        return delivered.get();
    }

    public long early() {
        return early.get();
    }

    public long lastDeliveryMicros() {
        return lastDeliveryMicros;
    }

    /** Lateness in microseconds. */
    public Histogram lateness() {
        return lateness;
    }

    public static long nowMicros() {
        Instant now = Instant.now();
        return TimeUnit.SECONDS.toMicros(now.getEpochSecond()) + now.getNano() / 1000;
    }
}
