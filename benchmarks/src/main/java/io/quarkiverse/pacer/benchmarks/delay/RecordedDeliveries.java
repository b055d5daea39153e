package io.quarkiverse.pacer.benchmarks.delay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

import org.HdrHistogram.Histogram;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.LoadRunner;

/**
 * The delivery rows of a queue whose producers are threads of this JVM and whose consumers record into the
 * {@link DeliveryRecorder} (Pacer's {@code @Delayed} methods, Redisson's consumer threads).
 */
final class RecordedDeliveries implements DeliveryDriver {

    private static final Logger LOG = Logger.getLogger(RecordedDeliveries.class);

    private final DelayedBenchmarks.Scheduler scheduler;
    private final DeliveryRecorder recorder;
    private final AtomicLong scheduled = new AtomicLong();
    private Thread producers;

    RecordedDeliveries(DelayedBenchmarks.Scheduler scheduler, DeliveryRecorder recorder) {
        this.scheduler = scheduler;
        this.recorder = recorder;
    }

    @Override
    public void startProducing(int count, Duration duration) {
        scheduled.set(0);
        producers = new Thread(() -> LoadRunner.run(count, Duration.ZERO, duration, (worker, sequence) -> {
            scheduler.schedule(DeliveryRecorder.nowMicros(), sequence);
            scheduled.incrementAndGet();
            return true;
        }), "bench-e2e-producers");
        producers.start();
    }

    @Override
    public long scheduled() {
        return scheduled.get();
    }

    @Override
    public void awaitProducers() throws InterruptedException {
        producers.join();
    }

    @Override
    public Spread scheduleSpread(int messages, int count, long leadMicros, long spreadMicros)
            throws InterruptedException {
        long base = DeliveryRecorder.nowMicros() + leadMicros;
        long started = DeliveryRecorder.nowMicros();
        parallel(messages, count, sequence -> scheduler.schedule(
                base + ThreadLocalRandom.current().nextLong(spreadMicros), sequence));
        return new Spread(base, started, DeliveryRecorder.nowMicros());
    }

    @Override
    public long delivered() {
        return recorder.count();
    }

    @Override
    public long early() {
        return recorder.early();
    }

    @Override
    public Histogram lateness() {
        return recorder.lateness();
    }

    @Override
    public void reset() {
        recorder.reset();
    }

    @Override
    public long cpuNanos() {
        return LoadRunner.processCpuNanos();
    }

    /** Runs {@code action(sequence)} for sequences 0..n-1 on {@code threads} threads; returns elapsed µs. */
    static long parallel(int n, int threads, LongConsumer action) throws InterruptedException {
        AtomicLong next = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> started = new ArrayList<>();
        long start = DeliveryRecorder.nowMicros();
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(() -> {
                long sequence;
                while ((sequence = next.getAndIncrement()) < n) {
                    try {
                        action.accept(sequence);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }, "bench-scheduler-" + i);
            started.add(thread);
            thread.start();
        }
        for (Thread thread : started) {
            thread.join();
        }
        if (failure.get() != null) {
            LOG.warnf("Scheduling failed at least once: %s", failure.get().toString());
        }
        return DeliveryRecorder.nowMicros() - start;
    }
}
