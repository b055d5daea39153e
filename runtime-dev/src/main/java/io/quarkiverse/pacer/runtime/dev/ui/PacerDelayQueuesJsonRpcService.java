package io.quarkiverse.pacer.runtime.dev.ui;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.enterprise.inject.Instance;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.consumer.ConsumerSettings;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumerStats;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.delay.inspection.QueueDepth;
import io.quarkiverse.pacer.runtime.delay.inspection.WaitingMessage;
import io.quarkiverse.pacer.runtime.delay.integration.AfterCommitSender;
import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.quarkiverse.pacer.runtime.delay.producer.UnconsumedQueues;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The Dev UI's JSON-RPC methods of the delay-queue page (dev mode only): live queue depths, browsing of waiting
 * messages and dead letters, and the queue operations. Every Redis call is bounded: browsing returns at most
 * {@value #MAX_PAGE} messages, and the search for unconsumed queues makes at most {@value #SCAN_CALLS} {@code SCAN}
 * calls per request.
 */
public class PacerDelayQueuesJsonRpcService {

    static final int MAX_PAGE = 200;
    static final int MAX_PAYLOAD_CHARS = 2000;
    static final int SCAN_CALLS = 20;

    private final RedisDelayedQueue queue;
    private final DelayedConsumers consumers;
    private final UnconsumedQueues unconsumed;
    private final Instance<AfterCommitSender> afterCommit;

    PacerDelayQueuesJsonRpcService(RedisDelayedQueue queue, DelayedConsumers consumers, UnconsumedQueues unconsumed,
            Instance<AfterCommitSender> afterCommit) {
        this.queue = queue;
        this.consumers = consumers;
        this.unconsumed = unconsumed;
        this.afterCommit = afterCommit;
    }

    /**
     * Every queue of interest: those a {@code @Delayed} method of this application consumes, and those found in Redis
     * that nothing here consumes (marked {@code consumer: null}), each with its depth per state and, when consumed
     * here, its settings and counters.
     */
    public Uni<JsonArray> getQueues() {
        return unconsumed.advance(SCAN_CALLS).flatMap(found -> {
            Map<String, ConsumerSettings> consumed = new TreeMap<>();
            consumers.consumers().forEach(settings -> consumed.put(settings.queue(), settings));
            TreeSet<String> names = new TreeSet<>(consumed.keySet());
            names.addAll(found);
            if (names.isEmpty()) {
                return Uni.createFrom().item(new JsonArray());
            }
            List<Uni<JsonObject>> rows = new ArrayList<>();
            for (String name : names) {
                rows.add(queue.depth(name).map(depth -> queueRow(name, consumed.get(name), depth)));
            }
            return Uni.join().all(rows).andFailFast().map(JsonArray::new);
        });
    }

    /**
     * Schedule on commit: whether it is on ({@code quarkus-narayana-jta}), and how many operations of committed
     * transactions wait for Redis.
     */
    @NonBlocking
    public JsonObject getAfterCommit() {
        boolean enabled = afterCommit.isResolvable();
        return new JsonObject().put("enabled", enabled).put("pending", enabled ? afterCommit.get().pending() : 0);
    }

    private JsonObject queueRow(String name, ConsumerSettings settings, QueueDepth depth) {
        JsonObject row = new JsonObject()
                .put("queue", name)
                .put("scheduled", depth.scheduled())
                .put("overdue", depth.overdue())
                .put("inFlight", depth.inFlight())
                .put("dead", depth.dead())
                .put("oldestOverdueMillis", depth.oldestOverdueMillis());
        if (settings == null) {
            return row.put("consumer", (String) null).put("consumedHere", false);
        }
        DelayedConsumerDefinition definition = settings.definition();
        row.put("consumer", definition.getDeclaringClass() + "#" + definition.getMethodName())
                .put("payloadType", definition.isMessageParameter()
                        ? "DelayedMessage<" + definition.getPayloadType() + ">"
                        : definition.getPayloadType())
                .put("consumedHere", settings.enabled())
                .put("concurrency", settings.concurrency())
                .put("maxAttempts", settings.maxAttempts())
                .put("backoffMillis", settings.backoffMillis())
                .put("leaseMillis", settings.leaseMillis());
        DelayedConsumerStats stats = consumers.stats(name);
        if (stats != null) {
            row.put("delivered", stats.delivered())
                    .put("failed", stats.failed())
                    .put("retried", stats.retried())
                    .put("deadLettered", stats.deadLettered())
                    .put("redelivered", stats.reclaimed())
                    .put("maxLatenessMillis", stats.maxLatenessMillis());
        }
        return row;
    }

    /** The waiting messages of {@code queue} due first, at most {@code limit} (1 to {@value #MAX_PAGE}). */
    public Uni<JsonArray> getWaitingMessages(String queue, int limit) {
        return this.queue.waiting(queue, page(limit), MAX_PAYLOAD_CHARS).map(messages -> {
            JsonArray rows = new JsonArray();
            for (WaitingMessage message : messages) {
                rows.add(new JsonObject()
                        .put("id", message.id())
                        .put("dueAt", message.dueAt().toString())
                        .put("dueAtMillis", message.dueAt().toEpochMilli())
                        .put("attempts", message.attempts())
                        .put("redeliveries", message.redeliveries())
                        .put("payload", message.payload())
                        .put("truncated", message.truncated()));
            }
            return rows;
        });
    }

    /** The oldest dead letters of {@code queue}, at most {@code limit} (1 to {@value #MAX_PAGE}). */
    public Uni<JsonArray> getDeadLetters(String queue, int limit) {
        return this.queue.deadLetters(queue, page(limit)).map(letters -> {
            JsonArray rows = new JsonArray();
            for (DeadLetter letter : letters) {
                String payload = letter.payloadText();
                rows.add(new JsonObject()
                        .put("id", letter.id())
                        .put("reason", letter.reason())
                        .put("deadAt", letter.deadAt().toString())
                        .put("attempts", letter.attempts())
                        .put("payload", payload.length() > MAX_PAYLOAD_CHARS ? payload.substring(0, MAX_PAYLOAD_CHARS)
                                : payload)
                        .put("truncated", payload.length() > MAX_PAYLOAD_CHARS));
            }
            return rows;
        });
    }

    private static int page(int limit) {
        return Math.max(1, Math.min(MAX_PAGE, limit));
    }

    /** Makes a waiting or dead-lettered message due at once. */
    public Uni<JsonObject> deliverNow(String queue, String id) {
        return onMessage("deliverNow", queue, id, () -> this.queue.deliverNow(queue, id));
    }

    /** Removes one message, whatever its state. */
    public Uni<JsonObject> cancel(String queue, String id) {
        return onMessage("cancel", queue, id, () -> this.queue.cancel(queue, id));
    }

    /** Moves one dead letter back to the queue, due now. */
    public Uni<JsonObject> replay(String queue, String id) {
        return onMessage("replay", queue, id, () -> this.queue.replay(queue, id));
    }

    /** Moves every dead letter of the queue back, due now (bounded batches). */
    public Uni<JsonObject> replayAll(String queue) {
        return onQueue("replayAll", queue, () -> this.queue.replayDeadLetters(queue));
    }

    /** Deletes one dead letter for good. */
    public Uni<JsonObject> purge(String queue, String id) {
        return onMessage("purge", queue, id, () -> this.queue.purge(queue, id));
    }

    /** Deletes every dead letter of the queue (bounded batches). */
    public Uni<JsonObject> purgeAll(String queue) {
        return onQueue("purgeAll", queue, () -> this.queue.purgeDeadLetters(queue));
    }

    /**
     * Schedules a test message: {@code payload} as typed (JSON for object consumers, checked against the consumer's
     * type), due after {@code delayMillis}; a blank {@code id} gets a random one.
     */
    public Uni<JsonObject> scheduleTestMessage(String queue, String id, String payload, long delayMillis) {
        String messageId = id == null || id.isBlank() ? UUID.randomUUID().toString() : id.trim();
        DelayedConsumerDefinition consumer = consumers.consumers().stream()
                .filter(settings -> settings.queue().equals(queue))
                .map(ConsumerSettings::definition)
                .findFirst().orElse(null);
        return Uni.createFrom()
                .deferred(() -> this.queue.scheduleText(queue, messageId, payload == null ? "" : payload,
                        Duration.ofMillis(delayMillis), consumer))
                .map(scheduled -> result("schedule", queue, scheduled, 1).put("delayMillis", delayMillis));
    }

    /** An operation on one message; it counts 1 when the message was there. */
    private static Uni<JsonObject> onMessage(String action, String queue, String id,
            Supplier<Uni<? extends Boolean>> operation) {
        return Uni.createFrom().deferred(operation).map(done -> result(action, queue, id, done ? 1 : 0));
    }

    /** An operation on every dead letter of a queue, with the number it moved or deleted. */
    private static Uni<JsonObject> onQueue(String action, String queue, Supplier<Uni<? extends Long>> operation) {
        return Uni.createFrom().deferred(operation).map(count -> result(action, queue, null, count));
    }

    private static JsonObject result(String action, String queue, String id, long count) {
        return new JsonObject().put("action", action).put("queue", queue).put("id", id).put("count", count);
    }
}
