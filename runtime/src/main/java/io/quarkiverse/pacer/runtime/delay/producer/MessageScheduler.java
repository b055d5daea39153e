package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedMetrics;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkiverse.pacer.runtime.delay.QueueShards;
import io.quarkiverse.pacer.runtime.delay.StoredPayload;
import io.quarkiverse.pacer.runtime.delay.integration.DelayedTransactions;
import io.quarkiverse.pacer.runtime.tracing.DelayedTracing;
import io.quarkiverse.pacer.runtime.tracing.ProducerTrace;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/** Scheduling one message by id: upsert or if-absent, inside a JTA transaction at its commit. */
final class MessageScheduler {

    private final QueueShards shards;
    private final DurableWrites writes;
    private final ProducerRetry retry;
    private final DelayedTracing tracing;
    private final DelayedMetrics metrics;
    private final UnconsumedQueues unconsumed;
    private final DelayedTransactions transactions;

    MessageScheduler(QueueShards shards, DurableWrites writes, ProducerRetry retry, DelayedTracing tracing,
            DelayedMetrics metrics, UnconsumedQueues unconsumed, DelayedTransactions transactions) {
        this.shards = shards;
        this.writes = writes;
        this.retry = retry;
        this.tracing = tracing;
        this.metrics = metrics;
        this.unconsumed = unconsumed;
        this.transactions = transactions;
    }

    /** Stores an encoded payload; {@code true} when stored, {@code false} when {@code mode} is absent and it exists. */
    Uni<Boolean> store(String queue, String id, PayloadCodec.Encoded encoded, String mode, Instant dueAt,
            Duration delay) {
        DelayedKeys k = shards.of(queue, id);
        // The trace context at the call, also when a transaction stores the message at its commit.
        ProducerTrace trace = tracing.send(queue, id, 1);
        List<String> args = List.of(id, StoredPayload.value(encoded, trace.context()),
                StoredPayload.encoding(encoded, trace.context()), mode,
                dueAt == null ? "" : Long.toString(dueAt.toEpochMilli()),
                dueAt == null ? Long.toString(delay.toMillis()) : "0",
                k.wakeChannel);
        Supplier<Uni<Response>> written = () -> writes.write(DelayedScripts.SCHEDULE, k.all, args,
                new ScheduleBatchPart(k, args), "message " + id + " of queue " + queue,
                "schedule it again with the same id: scheduling by id is an upsert");
        Supplier<Uni<Boolean>> operation = () -> written.get()
                .map(r -> r.get(0).toInteger() == 1)
                .invoke(stored -> {
                    if (stored) {
                        metrics.scheduled(queue);
                        unconsumed.scheduledOn(queue);
                    }
                });
        // Inside a JTA transaction: stored after commit; the caller already knows the id.
        return trace.ending(retry.call(() -> transactions.run("Scheduling message " + id + " on delay queue " + queue,
                operation, Boolean.TRUE)));
    }
}
