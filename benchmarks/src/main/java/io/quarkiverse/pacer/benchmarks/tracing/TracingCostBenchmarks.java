package io.quarkiverse.pacer.benchmarks.tracing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.BenchmarkSettings;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.benchmarks.delay.DelayedConsumers;
import io.quarkiverse.pacer.benchmarks.delay.DeliveryRecorder;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.tracing.OpenTelemetryDelayedTracing;

/**
 * What Pacer's OpenTelemetry tracing costs a delay queue: the same application with Pacer's tracing switched on and
 * off at runtime (sampler always on, every span exported to {@link CountingSpanExporter}), in interleaved rounds so
 * drift on a shared machine hits both alike. Every other scenario of the harness runs with Pacer's tracing off.
 */
@Singleton
public class TracingCostBenchmarks {

    private static final Logger LOG = Logger.getLogger(TracingCostBenchmarks.class);

    /** Traced throughput at least this share of the untraced one (issue: tracing costs ≤ 15 %). */
    static final double TARGET = 0.85;
    /** Producer threads of the end-to-end rounds, as in the delayed end-to-end scenario. */
    private static final int PRODUCERS = 16;
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

    @Inject
    Instance<OpenTelemetryDelayedTracing> tracing;

    @Inject
    Instance<DelayedQueue> queues;

    @Inject
    DeliveryRecorder recorder;

    @Inject
    CountingSpanExporter spans;

    /** Called at startup by the harness: Pacer's tracing stays off except in this group's traced runs. */
    public void switchOff() {
        if (tracing.isResolvable()) {
            tracing.get().tracing(false);
        }
    }

    public void run(BenchmarkContext context) throws Exception {
        if (!tracing.isResolvable() || queues.isUnsatisfied()) {
            context.table().add("tracing cost", "Pacer").note("not measured: Pacer's tracing is not in this build");
            return;
        }
        OpenTelemetryDelayedTracing switcher = tracing.get();
        DelayedQueue queue = queues.get();
        try {
            schedule(context, switcher, queue);
            endToEnd(context, switcher, queue);
        } finally {
            switcher.tracing(false);
            context.flushAll();
        }
    }

    private void schedule(BenchmarkContext context, OpenTelemetryDelayedTracing switcher, DelayedQueue queue) {
        BenchmarkSettings settings = context.settings();
        String scenario = "tracing cost: schedule, due in 1 h · " + settings.highConcurrency() + " producers";
        LOG.infof("Tracing scenario: %s", scenario);
        context.flushAll();
        Duration hour = Duration.ofHours(1);
        // Each operation sets the switch on every call (a volatile write, the same for both): rounds alternate them.
        LoadResult[] results = LoadRunner.interleaved(settings.highConcurrency(), settings.warmup(),
                settings.measure(), settings.rounds(), List.of((worker, sequence) -> {
                    switcher.tracing(false);
                    queue.schedule(DelayedConsumers.SCHEDULE_QUEUE, "payload-" + sequence, hour);
                    return true;
                }, (worker, sequence) -> {
                    switcher.tracing(true);
                    queue.schedule(DelayedConsumers.SCHEDULE_QUEUE, "payload-" + sequence, hour);
                    return true;
                }));
        Row traced = loadRow(context, scenario, "Pacer, tracing on", results[1]);
        Row untraced = loadRow(context, scenario, "Pacer, tracing off", results[0]).comparedTo(traced);
        target(untraced);
        context.flushAll();
    }

    /**
     * Rounds of {@code messages} due at once, scheduled by 16 producers and delivered by the {@code @Delayed}
     * consumer, tracing off and on in alternating order; a round's rate is its messages over the time from the first
     * schedule call to the last delivery.
     */
    private void endToEnd(BenchmarkContext context, OpenTelemetryDelayedTracing switcher, DelayedQueue queue)
            throws InterruptedException {
        BenchmarkSettings settings = context.settings();
        int messages = Integer.getInteger("bench.tracing.messages", 20_000);
        String scenario = String.format(Locale.ROOT, "tracing cost: end-to-end no-op, %,d msgs due now · %d producers,"
                + " %d consumers", messages, PRODUCERS, settings.delayedConsumers());
        LOG.infof("Tracing scenario: %s", scenario);
        context.flushAll();
        round(switcher, queue, false, messages / 4);
        round(switcher, queue, true, messages / 4);
        long[] micros = new long[2];
        long[] delivered = new long[2];
        long spansBefore = spans.exported();
        long tracedMessages = 0;
        for (int r = 0; r < settings.rounds(); r++) {
            for (int i = 0; i < 2; i++) {
                boolean on = (r % 2 == 0) == (i == 1);
                long elapsed = round(switcher, queue, on, messages);
                int index = on ? 1 : 0;
                micros[index] += elapsed;
                delivered[index] += messages;
                tracedMessages += on ? messages : 0;
            }
        }
        long exported = spans.exported() - spansBefore;
        Row traced = context.table().add(scenario, "Pacer @Delayed, tracing on")
                .throughput(delivered[1] * 1e6 / micros[1])
                .note(String.format(Locale.ROOT, "delivered msg/s over %d rounds; spans exported per traced"
                        + " message: %.2f (a send and a process span each)", settings.rounds(),
                        tracedMessages == 0 ? 0 : (double) exported / tracedMessages));
        Row untraced = context.table().add(scenario, "Pacer @Delayed, tracing off")
                .throughput(delivered[0] * 1e6 / micros[0])
                .note("delivered msg/s over " + settings.rounds() + " rounds").comparedTo(traced);
        target(untraced);
        context.flushAll();
    }

    /** One round: returns the microseconds from the first schedule call to the last delivery. */
    private long round(OpenTelemetryDelayedTracing switcher, DelayedQueue queue, boolean on, int messages)
            throws InterruptedException {
        switcher.tracing(on);
        recorder.reset();
        AtomicLong next = new AtomicLong();
        List<Thread> producers = new ArrayList<>(PRODUCERS);
        long start = DeliveryRecorder.nowMicros();
        for (int p = 0; p < PRODUCERS; p++) {
            Thread producer = new Thread(() -> {
                long sequence;
                while ((sequence = next.getAndIncrement()) < messages) {
                    queue.schedule(DelayedConsumers.E2E_QUEUE, "payload-" + sequence, Duration.ZERO);
                }
            }, "bench-tracing-producer-" + p);
            producers.add(producer);
            producer.start();
        }
        for (Thread producer : producers) {
            producer.join();
        }
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        while (recorder.count() < messages) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "only %,d of %,d messages delivered within %s (tracing %s)", recorder.count(), messages,
                        DRAIN_TIMEOUT, on ? "on" : "off"));
            }
            Thread.sleep(5);
        }
        return recorder.lastDeliveryMicros() - start;
    }

    private static Row loadRow(BenchmarkContext context, String scenario, String implementation, LoadResult result) {
        Row row = context.table().add(scenario, implementation)
                .throughput(result.throughput())
                .latencies(result.p50Millis(), result.p99Millis(), result.maxMillis())
                .cpu(result.cpuMicrosPerCall())
                .note("scheduled msg/s; latency = one schedule call");
        if (result.errors() > 0) {
            row.addNote(result.errors() + " errors, first: " + result.firstError());
        }
        return row;
    }

    private static void target(Row untraced) {
        Double ratio = untraced.pacerThroughputRatio();
        untraced.target(String.format(Locale.ROOT, "traced ≥ %.2f× untraced", TARGET), ratio != null && ratio >= TARGET);
    }
}
