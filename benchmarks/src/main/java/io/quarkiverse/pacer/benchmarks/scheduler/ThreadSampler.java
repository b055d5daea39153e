package io.quarkiverse.pacer.benchmarks.scheduler;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Samples the stacks of the threads whose name starts with a prefix (Pacer's connection threads) every few
 * milliseconds while a scheduler row is measured, and tallies their state with their innermost frames: where such a
 * thread spends the window, running or blocked, when the row does not keep up.
 */
final class ThreadSampler implements AutoCloseable {

    private static final long INTERVAL_MILLIS = 20;
    private static final int FRAMES = 3;

    private final String prefix;
    private final Map<String, Integer> tally = new HashMap<>();
    private final Thread sampler;
    private volatile boolean stopped;
    private int samples;

    ThreadSampler(String prefix) {
        this.prefix = prefix;
        this.sampler = new Thread(this::sample, "bench-thread-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] ids = Arrays.stream(threads.getThreadInfo(threads.getAllThreadIds(), 0))
                .filter(info -> info != null && info.getThreadName().startsWith(prefix))
                .mapToLong(ThreadInfo::getThreadId).toArray();
        while (!stopped && ids.length > 0) {
            for (ThreadInfo info : threads.getThreadInfo(ids, FRAMES)) {
                if (info == null) {
                    continue;
                }
                StringBuilder key = new StringBuilder(info.getThreadState().toString());
                for (StackTraceElement frame : info.getStackTrace()) {
                    key.append(" < ").append(frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1))
                            .append('.').append(frame.getMethodName());
                }
                synchronized (tally) {
                    tally.merge(key.toString(), 1, Integer::sum);
                    samples++;
                }
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The {@code limit} commonest states and stacks, with their share of the samples. */
    String describe(int limit) {
        synchronized (tally) {
            if (samples == 0) {
                return "no samples";
            }
            int all = samples;
            return tally.entrySet().stream().sorted(Map.Entry.<String, Integer> comparingByValue().reversed())
                    .limit(limit).map(e -> String.format(Locale.ROOT, "%.0f%% %s", 100.0 * e.getValue() / all, e.getKey()))
                    .collect(Collectors.joining("\n  ", samples + " samples:\n  ", ""));
        }
    }

    /**
     * The share of samples in which the threads were at work: anywhere but waiting in their event loop's selector
     * (which Java reports as {@code RUNNABLE} too). A thread at work in every sample while it used less than a core
     * was waiting for a CPU.
     */
    double busyShare() {
        synchronized (tally) {
            if (samples == 0) {
                return 0;
            }
            long idle = tally.entrySet().stream()
                    .filter(e -> e.getKey().contains("EPoll.wait") || e.getKey().contains("SelectorImpl.doSelect"))
                    .mapToLong(Map.Entry::getValue).sum();
            return 1 - idle / (double) samples;
        }
    }

    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
    }
}
