package io.quarkiverse.pacer.runtime;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.jboss.logging.Logger;

/**
 * A warning that can be due thousands of times a second (a skipped tick of each of many schedules that fell behind) is
 * logged at most once per interval; the others go to DEBUG and are counted in the next warning. Writing every one would
 * take the very thread that is behind, and bury the log.
 */
public final class SparseWarning {

    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private long nextWarningNanos;
    private long held;

    public SparseWarning(Logger log, Duration interval) {
        this(log, interval, System::nanoTime);
    }

    SparseWarning(Logger log, Duration interval, LongSupplier nanoTime) {
        this.log = log;
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
        this.nextWarningNanos = nanoTime.getAsLong();
    }

    /** Logs {@code String.format(format, args)} at WARN, or at DEBUG when a warning was logged within the interval. */
    public void warnf(String format, Object... args) {
        long heldBefore;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            if (now - nextWarningNanos < 0) {
                held++;
                heldBefore = -1;
            } else {
                heldBefore = held;
                held = 0;
                nextWarningNanos = now + intervalNanos;
            }
        }
        if (heldBefore < 0) {
            log.debugf(format, args);
        } else if (heldBefore == 0) {
            log.warnf(format, args);
        } else {
            log.warnf("%s (and %d more like it since the last one, logged at DEBUG)", String.format(format, args),
                    heldBefore);
        }
    }
}
