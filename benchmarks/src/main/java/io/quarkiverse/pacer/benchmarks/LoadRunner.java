package io.quarkiverse.pacer.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.HdrHistogram.Histogram;

/**
 * Closed-loop load: {@code callers} platform threads call one operation back to back for a warm-up and then a
 * measurement window; only calls that start and end inside the window are counted and timed.
 */
public final class LoadRunner {

    /** One call of the system under test; returns whether the call was admitted (not rate limited). */
    @FunctionalInterface
    public interface Operation {
        boolean call(int worker, long sequence) throws Exception;
    }

    private LoadRunner() {
    }

    public static LoadResult run(int callers, Duration warmup, Duration measure, Operation operation) {
        long warmupNanos = warmup.toNanos();
        long measureNanos = measure.toNanos();
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        long[] starts = new long[1];
        Worker[] workers = new Worker[callers];
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>(callers);
        for (int i = 0; i < callers; i++) {
            Worker worker = new Worker();
            workers[i] = worker;
            int index = i;
            Thread thread = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long measureStart = starts[0] + warmupNanos;
                long measureEnd = measureStart + measureNanos;
                long sequence = 0;
                long now = System.nanoTime();
                while (now < measureEnd) {
                    long t0 = now;
                    boolean admitted;
                    try {
                        admitted = operation.call(index, sequence++);
                    } catch (Throwable e) {
                        firstError.compareAndSet(null, e);
                        now = System.nanoTime();
                        if (t0 >= measureStart && now <= measureEnd) {
                            worker.errors++;
                        }
                        continue;
                    }
                    now = System.nanoTime();
                    if (t0 >= measureStart && now <= measureEnd) {
                        worker.latencies.recordValue(Math.min(now - t0, Worker.HIGHEST));
                        if (admitted) {
                            worker.admitted++;
                        }
                    }
                }
            }, "bench-caller-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        long cpuAtStart;
        long cpuAtEnd;
        try {
            ready.await();
            starts[0] = System.nanoTime();
            go.countDown();
            // The JVM's CPU time over the measurement window: what one call costs the client, whatever Redis does.
            sleepUntil(starts[0] + warmupNanos);
            cpuAtStart = processCpuNanos();
            sleepUntil(starts[0] + warmupNanos + measureNanos);
            cpuAtEnd = processCpuNanos();
            for (Thread thread : threads) {
                thread.join(TimeUnit.NANOSECONDS.toMillis(warmupNanos + measureNanos) + 60_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during a load run", e);
        }
        Histogram all = new Histogram(Worker.HIGHEST, 2);
        long admitted = 0;
        long errors = 0;
        for (Worker worker : workers) {
            all.add(worker.latencies);
            admitted += worker.admitted;
            errors += worker.errors;
        }
        Throwable error = firstError.get();
        return new LoadResult(callers, all.getTotalCount(), admitted, errors, measureNanos / 1e9, all,
                error == null ? null : error.getClass().getSimpleName() + ": " + error.getMessage(),
                cpuAtEnd - cpuAtStart);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long remaining;
        while ((remaining = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(remaining);
        }
    }

    /** CPU time of the whole JVM process in nanoseconds, or 0 when the platform does not report it. */
    public static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }

    /**
     * Measures several operations under the same background load: each gets a warm-up, then {@code rounds} rounds
     * run every operation for {@code measure / rounds} (after a short unrecorded lead-in), alternating the order
     * (ABC, CBA, ...) so drift on a shared machine hits all of them alike. Returns one merged result per operation.
     */
    public static LoadResult[] interleaved(int callers, Duration warmup, Duration measure, int rounds,
            List<Operation> operations) {
        List<Slice> slices = new ArrayList<>();
        for (Operation operation : operations) {
            slices.add((leadIn, window) -> run(callers, leadIn, window, operation));
        }
        return interleavedSlices(warmup, measure, rounds, () -> {
        }, slices);
    }

    /** A closed-loop run of one implementation: an unrecorded lead-in, then the measured window. */
    @FunctionalInterface
    public interface Slice {
        LoadResult run(Duration leadIn, Duration measure);
    }

    /**
     * {@link #interleaved} for runs that are not operations of this JVM (e.g. another process's), with
     * {@code beforeEach} run before every slice (e.g. emptying Redis, so each starts from the same state).
     */
    public static LoadResult[] interleavedSlices(Duration warmup, Duration measure, int rounds, Runnable beforeEach,
            List<Slice> slices) {
        Duration slice = measure.dividedBy(Math.max(1, rounds));
        Duration leadIn = Duration.ofMillis(Math.min(100, Math.max(0, warmup.toMillis())));
        for (Slice run : slices) {
            beforeEach.run();
            run.run(warmup, Duration.ZERO);
        }
        LoadResult[] merged = new LoadResult[slices.size()];
        for (int round = 0; round < Math.max(1, rounds); round++) {
            for (int i = 0; i < slices.size(); i++) {
                int index = round % 2 == 0 ? i : slices.size() - 1 - i;
                beforeEach.run();
                LoadResult result = slices.get(index).run(leadIn, slice);
                if (Boolean.getBoolean("bench.verbose")) {
                    System.out.printf("  round %d op %d: %.0f ops/s p50 %.3f ms p99 %.3f ms%n", round, index,
                            result.throughput(), result.p50Millis(), result.p99Millis());
                }
                merged[index] = merged[index] == null ? result : merged[index].plus(result);
            }
        }
        return merged;
    }

    private static final class Worker {
        static final long HIGHEST = TimeUnit.SECONDS.toNanos(60);
        final Histogram latencies = new Histogram(HIGHEST, 2);
        long admitted;
        long errors;
    }

    /** The outcome of one load run; latencies in nanoseconds. */
    public record LoadResult(int callers, long calls, long admitted, long errors, double seconds, Histogram latencies,
            String firstError, long cpuNanos) {

        /** This result and another slice of the same operation, as one. */
        public LoadResult plus(LoadResult other) {
            Histogram sum = latencies.copy();
            sum.add(other.latencies);
            return new LoadResult(callers, calls + other.calls, admitted + other.admitted, errors + other.errors,
                    seconds + other.seconds, sum, firstError != null ? firstError : other.firstError,
                    cpuNanos + other.cpuNanos);
        }

        /** JVM CPU microseconds per call (all threads: callers, event loops, GC). */
        public double cpuMicrosPerCall() {
            return calls == 0 ? 0 : cpuNanos / 1e3 / calls;
        }

        public double throughput() {
            return calls / seconds;
        }

        public double admittedPercent() {
            return calls == 0 ? 0 : 100.0 * admitted / calls;
        }

        public double p50Millis() {
            return latencies.getValueAtPercentile(50) / 1e6;
        }

        public double p99Millis() {
            return latencies.getValueAtPercentile(99) / 1e6;
        }

        public double maxMillis() {
            return latencies.getMaxValue() / 1e6;
        }
    }
}
