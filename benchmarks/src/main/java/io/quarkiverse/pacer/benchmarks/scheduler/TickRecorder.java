package io.quarkiverse.pacer.benchmarks.scheduler;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Singleton;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Records every run of the scheduler rows: which job ran which tick, and its lateness (the time the task started minus
 * the tick's scheduled fire time, both read from the machine's wall clock: {@code Instant.now()} in the JVM, Redis
 * {@code TIME} for Pacer's fire times, on the same host). Only ticks whose fire time lies in the measured window count;
 * {@link #reset(long, long)} before each scenario.
 */
@Singleton
public class TickRecorder {

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final Map<Long, Integer> runs = new ConcurrentHashMap<>();
    private final AtomicLong counted = new AtomicLong();
    private final AtomicLong early = new AtomicLong();
    private final AtomicLong all = new AtomicLong();
    private volatile Histogram lateness = new ConcurrentHistogram(HIGHEST_MICROS, 2);
    private volatile long windowStart = Long.MAX_VALUE;
    private volatile long windowEnd = Long.MIN_VALUE;

    /** Counts the ticks fired from {@code startMillis} (included) to {@code endMillis} (excluded), epoch millis. */
    public void reset(long startMillis, long endMillis) {
        windowStart = Long.MAX_VALUE;
        runs.clear();
        counted.set(0);
        early.set(0);
        all.set(0);
        lateness = new ConcurrentHistogram(HIGHEST_MICROS, 2);
        windowEnd = endMillis;
        windowStart = startMillis;
    }

    /** A run of job {@code job} for the tick fired at {@code fireTime}, starting now. */
    public void ran(int job, Instant fireTime) {
        long now = nowMicros();
        all.incrementAndGet();
        long fire = fireTime.toEpochMilli();
        if (fire < windowStart || fire >= windowEnd) {
            return;
        }
        long late = now - TimeUnit.MILLISECONDS.toMicros(fire);
        if (late < 0) {
            early.incrementAndGet();
            late = 0;
        }
        lateness.recordValue(Math.min(late, HIGHEST_MICROS));
        counted.incrementAndGet();
        runs.merge(((long) job << 32) | (fire - windowStart), 1, Integer::sum);
    }

    /** Every run since the last reset, inside the window or not. */
    public long allRuns() {
        return all.get();
    }

    /** Runs of ticks fired in the window. */
    public long counted() {
        return counted.get();
    }

    /** Runs started before their tick's fire time (recorded as 0 lateness). */
    public long early() {
        return early.get();
    }

    /** Lateness of the window's runs, in microseconds. */
    public Histogram lateness() {
        return lateness;
    }

    /** Distinct (job, tick) pairs that ran in the window. */
    public long distinctTicks() {
        return runs.size();
    }

    /** Runs of jobs {@code 0 .. jobs-1} per job, to find jobs that ran more or fewer ticks than expected. */
    public int[] ticksPerJob(int jobs) {
        int[] ticks = new int[jobs];
        for (Long key : runs.keySet()) {
            int job = (int) (key >>> 32);
            if (job >= 0 && job < jobs) {
                ticks[job]++;
            }
        }
        return ticks;
    }

    static long nowMicros() {
        Instant now = Instant.now();
        return TimeUnit.SECONDS.toMicros(now.getEpochSecond()) + now.getNano() / 1000;
    }
}
