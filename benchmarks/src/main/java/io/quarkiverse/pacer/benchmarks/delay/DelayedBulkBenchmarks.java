package io.quarkiverse.pacer.benchmarks.delay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.BenchmarkSettings;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ScheduledMessage;

/**
 * Bulk scheduling ({@code scheduleAll}, messages per second) and the Redis memory a waiting message costs (a 100-byte
 * payload, {@code INFO memory} {@code used_memory} delta divided by the count), Pacer against Redisson's
 * {@code RDelayedQueue} and BullMQ storing the same payloads.
 */
@ApplicationScoped
public class DelayedBulkBenchmarks {

    private static final Logger LOG = Logger.getLogger(DelayedBulkBenchmarks.class);

    static final double BULK_TARGET = 100_000;
    /** Messages per {@code scheduleAll} call in the bulk row. */
    static final int BULK_SIZE = 1_000;
    /** Producer threads of the bulk row: a few, each sending large batches. */
    static final int BULK_PRODUCERS = 4;
    static final int PAYLOAD_BYTES = 100;

    @Inject
    Instance<DelayedQueue> queues;

    public void run(BenchmarkContext context, RedissonDelayedQueuePeer redisson, BullMqPeer bullmq, boolean bulk,
            boolean memory) {
        DelayedQueue queue = queues.isUnsatisfied() ? null : queues.get();
        if (queue == null) {
            return;
        }
        if (bulk) {
            bulkSchedule(context, queue);
        }
        if (memory) {
            memoryPerMessage(context, queue, redisson, bullmq);
        }
    }

    private void bulkSchedule(BenchmarkContext context, DelayedQueue queue) {
        BenchmarkSettings settings = context.settings();
        String scenario = "bulk schedule (scheduleAll × " + BULK_SIZE + "), due in 1 h · " + BULK_PRODUCERS
                + " producers";
        LOG.infof("Delayed scenario: %s", scenario);
        context.flushAll();
        String payload = payload();
        LoadResult result = LoadRunner.run(BULK_PRODUCERS, settings.warmup(), settings.measure(),
                (worker, sequence) -> {
                    Instant due = Instant.now().plus(Duration.ofHours(1));
                    List<ScheduledMessage> batch = new ArrayList<>(BULK_SIZE);
                    for (int i = 0; i < BULK_SIZE; i++) {
                        batch.add(ScheduledMessage.of(worker + "-" + sequence + "-" + i, payload, due));
                    }
                    queue.scheduleAll(DelayedConsumers.SCHEDULE_QUEUE, batch);
                    return true;
                });
        context.flushAll();
        double messagesPerSecond = result.throughput() * BULK_SIZE;
        Row row = context.table().add(scenario, "Pacer DelayedQueue.scheduleAll")
                .throughput(messagesPerSecond)
                .latencies(result.p50Millis(), result.p99Millis(), result.maxMillis())
                .cpu(result.cpuMicrosPerCall() / BULK_SIZE)
                .note("scheduled msg/s; latency = one call of " + BULK_SIZE + " messages; CPU per message");
        if (result.errors() > 0) {
            row.addNote(result.errors() + " errors, first: " + result.firstError());
        }
        row.target(String.format(Locale.ROOT, "≥ %,.0f msg/s", BULK_TARGET), messagesPerSecond >= BULK_TARGET);
    }

    private void memoryPerMessage(BenchmarkContext context, DelayedQueue queue, RedissonDelayedQueuePeer redisson,
            BullMqPeer bullmq) {
        int messages = Integer.getInteger("bench.memory.messages", 100_000);
        String scenario = "Redis memory per waiting message, " + PAYLOAD_BYTES + "-byte payload · "
                + String.format(Locale.ROOT, "%,d", messages) + " messages";
        LOG.infof("Delayed scenario: %s", scenario);
        String payload = payload();

        context.flushAll();
        long before = usedMemory(context);
        Instant due = Instant.now().plus(Duration.ofHours(1));
        List<ScheduledMessage> batch = new ArrayList<>(BULK_SIZE);
        for (int i = 0; i < messages; i++) {
            // Ids as long as Pacer's generated ones (a UUID), so the figure is what a default schedule costs.
            batch.add(ScheduledMessage.of(String.format("%08d-0000-4000-8000-000000000000", i), payload, due));
            if (batch.size() == BULK_SIZE || i == messages - 1) {
                queue.scheduleAll(DelayedConsumers.SCHEDULE_QUEUE, batch);
                batch = new ArrayList<>(BULK_SIZE);
            }
        }
        double pacerBytes = (double) (usedMemory(context) - before) / messages;
        context.flushAll();

        double redissonBytes;
        try (RedissonDelayedQueuePeer.Queue delayed = redisson.queue("redisson-memory")) {
            before = usedMemory(context);
            delayed.offerAll(payload, messages, TimeUnit.HOURS.toMillis(1));
            redissonBytes = (double) (usedMemory(context) - before) / messages;
        }
        context.flushAll();

        double bullmqBytes = Double.NaN;
        if (bullmq.unavailable() == null) {
            before = usedMemory(context);
            bullmq.fill("bullmq-memory", messages, PAYLOAD_BYTES, Duration.ofHours(1));
            bullmqBytes = (double) (usedMemory(context) - before) / messages;
            context.flushAll();
        }

        Row pacerRow = context.table().add(scenario, "Pacer DelayedQueue")
                .note(String.format(Locale.ROOT, "%.0f bytes per message (used_memory delta / count)", pacerBytes));
        Row redissonRow = context.table().add(scenario, "Redisson RDelayedQueue")
                .note(String.format(Locale.ROOT, "%.0f bytes per message", redissonBytes));
        redissonRow.target(String.format(Locale.ROOT, "Pacer ≤ 1.0× bytes (%.2f×)", pacerBytes / redissonBytes),
                pacerBytes <= redissonBytes);
        pacerRow.addNote(String.format(Locale.ROOT, "%.2f× Redisson", pacerBytes / redissonBytes));
        if (Double.isNaN(bullmqBytes)) {
            context.table().add(scenario, "BullMQ Queue").note("not measured: " + bullmq.unavailable());
        } else {
            context.table().add(scenario, "BullMQ Queue").note(String.format(Locale.ROOT,
                    "%.0f bytes per message (jobs with BullMQ's default options and numeric ids, and its events"
                            + " stream); Pacer %.2f× these bytes",
                    bullmqBytes, pacerBytes / bullmqBytes));
            pacerRow.addNote(String.format(Locale.ROOT, "%.2f× BullMQ", pacerBytes / bullmqBytes));
        }
    }

    private static String payload() {
        return "x".repeat(PAYLOAD_BYTES);
    }

    private static long usedMemory(BenchmarkContext context) {
        String info = String.valueOf(context.admin("INFO", "memory"));
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory: " + info);
    }
}
