package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.delay.ScheduledMessage;
import io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedMetrics;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.HandlersByQueue;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkiverse.pacer.runtime.delay.PayloadKind;
import io.quarkiverse.pacer.runtime.delay.QueueShards;
import io.quarkiverse.pacer.runtime.delay.inspection.DeadLetterOperations;
import io.quarkiverse.pacer.runtime.delay.inspection.QueueDepth;
import io.quarkiverse.pacer.runtime.delay.inspection.QueueInspection;
import io.quarkiverse.pacer.runtime.delay.inspection.WaitingMessage;
import io.quarkiverse.pacer.runtime.delay.integration.DelayedTransactions;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.tracing.DelayedTracing;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The {@link ReactiveDelayedQueue} bean: every operation on one message is one Lua script call on the shard holding
 * it; queue-wide operations visit every shard, and replay and purge of all dead letters repeat a bounded call. The work
 * is done by one class per concern: {@link MessageScheduler}, {@link BulkScheduler}, {@link QueueInspection},
 * {@link DeadLetterOperations}, over {@link QueueShards}.
 */
@Singleton
public class RedisDelayedQueue implements ReactiveDelayedQueue {

    /** How delayed-schedule.lua stores a message: a new id, an upsert of the id, or only if the id is absent. */
    static final String NEW = "new";
    static final String UPSERT = "upsert";
    static final String ABSENT = "absent";

    private final PacerRedis redis;
    private final DelayedMetrics metrics;
    private final UnconsumedQueues unconsumed;
    private final DelayedTransactions transactions;
    /** Every Redis call of a producer operation goes through it: a short outage costs latency, not an error. */
    private final ProducerRetry retry;
    private final DelayedTracing tracing;
    private final QueueShards shards;
    private final PayloadCheck payloads;
    private final MessageScheduler scheduler;
    private final BulkScheduler bulk;
    private final QueueInspection inspection;
    private final DeadLetterOperations deadLetters;

    RedisDelayedQueue(PacerRedis redis, PacerConfig config, Instance<ObjectMapper> mapper,
            Instance<DelayedMetrics> metrics, UnconsumedQueues unconsumed, Instance<DelayedTransactions> transactions,
            HandlersByQueue handlers, Vertx vertx, Instance<DelayedTracing> tracing) {
        this.redis = redis;
        this.retry = new ProducerRetry(vertx, config.delayed().producerTimeout());
        this.tracing = tracing.isResolvable() ? tracing.get() : DelayedTracing.NONE;
        this.transactions = transactions.isResolvable() ? transactions.get() : DelayedTransactions.IMMEDIATE;
        this.metrics = metrics.isResolvable() ? metrics.get() : DelayedMetrics.NONE;
        this.unconsumed = unconsumed;
        this.shards = new QueueShards(config.keyPrefix(), config.delayed().shards(), retry);
        this.payloads = new PayloadCheck(mapper, handlers);
        Map<String, DelayedRuntimeConfig.Durability> durabilityByQueue = new HashMap<>();
        config.delayed().queues().forEach((name, queueConfig) -> queueConfig.durability()
                .ifPresent(durability -> durabilityByQueue.put(name, durability)));
        DurableWrites writes = new DurableWrites(redis, config.delayed().durability(), durabilityByQueue,
                config.delayed().durabilityTimeout());
        this.scheduler = new MessageScheduler(shards, writes, retry, this.tracing, this.metrics, unconsumed,
                this.transactions);
        this.bulk = new BulkScheduler(shards, payloads, writes, retry, this.tracing, this.metrics, unconsumed);
        this.inspection = new QueueInspection(redis, shards);
        this.deadLetters = new DeadLetterOperations(redis, shards, retry);
    }

    public DelayedMetrics metrics() {
        return metrics;
    }

    public DelayedTracing tracing() {
        return tracing;
    }

    /** The keys of every shard of {@code queue}. */
    public DelayedKeys[] shards(String queue) {
        return shards.of(queue);
    }

    public PayloadCodec codec() {
        return payloads.codec();
    }

    /** Makes a Redis call again while Redis is unavailable, for at most the producer timeout. */
    public ProducerRetry retry() {
        return retry;
    }

    /**
     * The payload as a producer call stores it on {@code queue}, checked as a producer call checks it (the queue name,
     * and the queue's consumer in this application): for the recurring schedules, which store it once and schedule
     * it on every tick.
     *
     * @throws IllegalArgumentException for a bad queue name, or a payload that cannot be serialized or does not fit
     *         the queue's consumer
     */
    public PayloadCodec.Encoded encode(String queue, Object payload) {
        shards.of(queue);
        payloads.check(queue, payload);
        return payloads.codec().encode(payload);
    }

    /**
     * Schedules an encoded payload (see {@link #encode}) under {@code id} for {@code dueAt}, as
     * {@link #scheduleIfAbsent(String, String, Object, Instant)} does: a message with this id that is waiting, in
     * flight or dead-lettered is kept as it is.
     *
     * @return whether the message was stored
     */
    public Uni<Boolean> scheduleEncodedIfAbsent(String queue, String id, PayloadCodec.Encoded encoded, Instant dueAt) {
        return scheduler.store(queue, id, encoded, ABSENT, Objects.requireNonNull(dueAt, "dueAt"), null);
    }

    /** Where unconsumed queues are tracked. */
    public UnconsumedQueues unconsumed() {
        return unconsumed;
    }

    /**
     * A random id has no earlier message to replace: stored as {@link #NEW}, without the upsert's lookups. With
     * {@code durability=replicas} it is drawn for a shard whose master is not known to be without a replica, when
     * there is one.
     */
    String newId(String queue) {
        return scheduler.newId(queue);
    }

    @Override
    public Uni<String> schedule(String queue, Object payload, Duration delay) {
        String id = newId(queue);
        return store(queue, id, payload, NEW, null, delay).replaceWith(id);
    }

    @Override
    public Uni<String> schedule(String queue, Object payload, Instant dueAt) {
        String id = newId(queue);
        return store(queue, id, payload, NEW, Objects.requireNonNull(dueAt, "dueAt"), null).replaceWith(id);
    }

    @Override
    public Uni<String> scheduleWithId(String queue, String id, Object payload, Instant dueAt) {
        return store(queue, id, payload, UPSERT, Objects.requireNonNull(dueAt, "dueAt"), null).replaceWith(id);
    }

    @Override
    public Uni<String> scheduleWithId(String queue, String id, Object payload, Duration delay) {
        return store(queue, id, payload, UPSERT, null, delay).replaceWith(id);
    }

    @Override
    public Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Instant dueAt) {
        return store(queue, id, payload, ABSENT, Objects.requireNonNull(dueAt, "dueAt"), null);
    }

    @Override
    public Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Duration delay) {
        return store(queue, id, payload, ABSENT, null, delay);
    }

    @Override
    public Uni<List<String>> scheduleAll(String queue, List<ScheduledMessage> messages) {
        return bulk.scheduleAll(queue, messages);
    }

    /** Bad input throws {@link IllegalArgumentException} at once, before anything is sent. */
    private Uni<Boolean> store(String queue, String id, Object payload, String mode, Instant dueAt, Duration delay) {
        return scheduler.store(queue, id, encoded(queue, id, payload, dueAt, delay), mode, dueAt, delay);
    }

    /**
     * {@link #schedule} and {@link #scheduleIfAbsent} for {@link BlockingDelayedQueue}, on the caller's (non
     * event-loop) thread: {@code dueAt}, or else {@code delay}; returns whether the message was stored.
     */
    boolean storeBlocking(String queue, String id, Object payload, String mode, Instant dueAt, Duration delay,
            Duration awaitAtMost) {
        return scheduler.storeBlocking(queue, id, encoded(queue, id, payload, dueAt, delay), mode, dueAt, delay,
                awaitAtMost);
    }

    /** The payload, encoded once its queue, id and due time are checked; bad input throws at once. */
    private PayloadCodec.Encoded encoded(String queue, String id, Object payload, Instant dueAt, Duration delay) {
        shards.of(queue, id); // names are checked before the payload is encoded
        if (dueAt == null) {
            if (delay == null || delay.isNegative()) {
                throw new IllegalArgumentException("Delay must be zero or positive: " + delay);
            }
        }
        payloads.check(queue, payload);
        return payloads.codec().encode(payload);
    }

    /**
     * Schedules a payload typed as text (the Dev UI's test messages): stored as is, so a JSON document reaches a
     * consumer of any type. When {@code consumer} is given and takes JSON, the text must decode to its payload type.
     *
     * @throws IllegalArgumentException when the text does not fit the consumer's payload type
     */
    public Uni<String> scheduleText(String queue, String id, String text, Duration delay,
            DelayedConsumerDefinition consumer) {
        shards.of(queue, id);
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("Delay must be zero or positive: " + delay);
        }
        if (consumer != null && consumer.getPayloadKind() == PayloadKind.JSON) {
            payloads.checkJson(queue, text, consumer);
        }
        return scheduler.store(queue, id, new PayloadCodec.Encoded(text, PayloadCodec.TEXT), UPSERT, null, delay)
                .replaceWith(id);
    }

    @Override
    public Uni<Boolean> cancel(String queue, String id) {
        DelayedKeys k = shards.of(queue, id);
        Supplier<Uni<Boolean>> operation = () -> redis.eval(DelayedScripts.CANCEL, k.all,
                List.of(id)).map(r -> r.toInteger() == 1);
        return retry.call(() -> transactions.run("Cancelling message " + id + " of delay queue " + queue,
                operation, Boolean.TRUE));
    }

    @Override
    public Uni<Boolean> deliverNow(String queue, String id) {
        DelayedKeys k = shards.of(queue, id);
        return retry.call(() -> redis.eval(DelayedScripts.DELIVER_NOW, k.all, List.of(id, k.wakeChannel)))
                .map(r -> r.toInteger() != 0);
    }

    @Override
    public Uni<Long> size(String queue) {
        return depth(queue).map(depth -> depth.waiting() + depth.inFlight());
    }

    @Override
    public Uni<Long> deadLetterCount(String queue) {
        return depth(queue).map(QueueDepth::dead);
    }

    /** The messages of a queue in each state, summed over its shards; O(log n) per shard. */
    public Uni<QueueDepth> depth(String queue) {
        return inspection.depth(queue);
    }

    /**
     * The waiting messages of {@code queue} due first, at most {@code limit} (1 to 1000), payloads cut to
     * {@code maxPayloadBytes}; read only.
     */
    public Uni<List<WaitingMessage>> waiting(String queue, int limit, int maxPayloadBytes) {
        return inspection.waiting(queue, limit, maxPayloadBytes);
    }

    @Override
    public Uni<List<DeadLetter>> deadLetters(String queue, int limit) {
        return deadLetters.deadLetters(queue, limit);
    }

    @Override
    public Uni<Boolean> replay(String queue, String id) {
        return deadLetters.replay(queue, id);
    }

    @Override
    public Uni<Long> replayDeadLetters(String queue) {
        return deadLetters.replayDeadLetters(queue);
    }

    @Override
    public Uni<Boolean> purge(String queue, String id) {
        return deadLetters.purge(queue, id);
    }

    @Override
    public Uni<Long> purgeDeadLetters(String queue) {
        return deadLetters.purgeDeadLetters(queue);
    }
}
