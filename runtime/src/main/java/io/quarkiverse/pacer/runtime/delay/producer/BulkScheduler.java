package io.quarkiverse.pacer.runtime.delay.producer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.quarkiverse.pacer.delay.ScheduledMessage;
import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedMetrics;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkiverse.pacer.runtime.delay.QueueShards;
import io.quarkiverse.pacer.runtime.delay.StoredPayload;
import io.quarkiverse.pacer.runtime.tracing.DelayedTracing;
import io.quarkiverse.pacer.runtime.tracing.ProducerTrace;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/** {@code scheduleAll}: many messages, one script call per shard and per 1000 messages, all sent together. */
final class BulkScheduler {

    private final QueueShards shards;
    private final PayloadCheck payloads;
    private final DurableWrites writes;
    private final ProducerRetry retry;
    private final DelayedTracing tracing;
    private final DelayedMetrics metrics;
    private final UnconsumedQueues unconsumed;

    BulkScheduler(QueueShards shards, PayloadCheck payloads, DurableWrites writes, ProducerRetry retry,
            DelayedTracing tracing, DelayedMetrics metrics, UnconsumedQueues unconsumed) {
        this.shards = shards;
        this.payloads = payloads;
        this.writes = writes;
        this.retry = retry;
        this.tracing = tracing;
        this.metrics = metrics;
        this.unconsumed = unconsumed;
    }

    Uni<List<String>> scheduleAll(String queue, List<ScheduledMessage> messages) {
        Objects.requireNonNull(messages, "messages");
        DelayedKeys[] all = shards.of(queue);
        List<String> ids = new ArrayList<>(messages.size());
        // Per shard, the ARGV of its current batch; everything is encoded before anything is sent.
        List<List<String>> batches = new ArrayList<>();
        List<DelayedKeys> batchKeys = new ArrayList<>();
        List<String>[] open = newBatches(all.length);
        PayloadCodec.Encoded[] encoded = new PayloadCodec.Encoded[messages.size()];
        for (int i = 0; i < encoded.length; i++) {
            ScheduledMessage message = Objects.requireNonNull(messages.get(i), "message");
            DelayedKeys.checkId(message.id());
            encoded[i] = payloads.codec().encode(message.payload());
        }
        ProducerTrace trace = encoded.length == 0 ? ProducerTrace.NONE
                : tracing.send(queue, encoded.length == 1 ? messages.get(0).id() : null, encoded.length);
        for (int i = 0; i < encoded.length; i++) {
            ScheduledMessage message = messages.get(i);
            String id = message.id();
            int shard = DelayedKeys.shardOf(id, all.length);
            List<String> args = open[shard];
            if (args == null || args.size() == 2 + 4 * DelayedScripts.MAX_SCHEDULE_ALL) {
                args = new ArrayList<>();
                args.add(all[shard].wakeChannel);
                args.add("");
                open[shard] = args;
                batches.add(args);
                batchKeys.add(all[shard]);
            }
            args.add(id);
            args.add(StoredPayload.value(encoded[i], trace.context()));
            args.add(StoredPayload.encoding(encoded[i], trace.context()));
            args.add(Long.toString(message.dueAt().toEpochMilli()));
            ids.add(id);
        }
        if (batches.isEmpty()) {
            return Uni.createFrom().item(ids);
        }
        List<Uni<Response>> calls = new ArrayList<>(batches.size());
        for (int i = 0; i < batches.size(); i++) {
            List<String> args = batches.get(i);
            args.set(1, Integer.toString((args.size() - 2) / 4));
            DelayedKeys k = batchKeys.get(i);
            calls.add(retry.call(() -> writes.write(DelayedScripts.SCHEDULE_ALL, k, args,
                    (args.size() - 2) / 4 + " messages of queue " + queue,
                    "call scheduleAll again: every message is an upsert")));
        }
        // Subscribed together, the calls are written to Redis back to back: one round trip.
        Uni<?> stored = calls.size() == 1 ? calls.get(0) : Uni.join().all(calls).andFailFast();
        return trace.ending(stored.invoke(ignored -> {
            metrics.scheduled(queue, ids.size());
            unconsumed.scheduledOn(queue);
        })).replaceWith(ids);
    }

    @SuppressWarnings("unchecked")
    private static List<String>[] newBatches(int shards) {
        return new List[shards];
    }
}
