package io.quarkiverse.pacer.runtime.delay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.delay.ScheduledMessage;
import io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig.Durability;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.tracing.DelayedTracing;
import io.quarkiverse.pacer.runtime.tracing.ProducerTrace;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Response;

/**
 * The {@link ReactiveDelayedQueue} bean: every operation on one message is one Lua script call on the shard holding
 * it; queue-wide operations visit every shard, and replay and purge of all dead letters repeat a bounded call.
 */
@Singleton
public class RedisDelayedQueue implements ReactiveDelayedQueue {

    private final PacerRedis redis;
    private final String keyPrefix;
    private final int shards;
    private final Durability durability;
    private final Duration durabilityTimeout;
    private final Instance<ObjectMapper> mapper;
    private final ConcurrentHashMap<String, DelayedKeys[]> keys = new ConcurrentHashMap<>();
    /** The consumers of this application: a payload scheduled on their queue must fit them. */
    private final DelayedHandlers handlers;
    private final ConcurrentHashMap<String, JavaType> payloadTypes = new ConcurrentHashMap<>();
    private final DelayedMetrics metrics;
    private final UnconsumedQueues unconsumed;
    private final DelayedTransactions transactions;
    /** Every Redis call of a producer operation goes through it: a short outage costs latency, not an error. */
    private final ProducerRetry retry;
    private final DelayedTracing tracing;
    private volatile PayloadCodec codec;

    RedisDelayedQueue(PacerRedis redis, PacerConfig config, Instance<ObjectMapper> mapper,
            Instance<DelayedMetrics> metrics, UnconsumedQueues unconsumed, Instance<DelayedTransactions> transactions,
            DelayedHandlers handlers, Vertx vertx, Instance<DelayedTracing> tracing) {
        this.redis = redis;
        this.retry = new ProducerRetry(vertx, config.delayed().producerTimeout());
        this.tracing = tracing.isResolvable() ? tracing.get() : DelayedTracing.NONE;
        this.handlers = handlers;
        this.transactions = transactions.isResolvable() ? transactions.get() : DelayedTransactions.IMMEDIATE;
        this.keyPrefix = config.keyPrefix();
        this.shards = Math.max(1, config.delayed().shards());
        this.durability = config.delayed().durability();
        this.durabilityTimeout = config.delayed().durabilityTimeout();
        this.mapper = mapper;
        this.metrics = metrics.isResolvable() ? metrics.get() : DelayedMetrics.NONE;
        this.unconsumed = unconsumed;
    }

    DelayedMetrics metrics() {
        return metrics;
    }

    DelayedTracing tracing() {
        return tracing;
    }

    /** The keys of every shard of {@code queue}. */
    DelayedKeys[] shards(String queue) {
        DelayedKeys[] existing = keys.get(queue);
        if (existing != null) {
            return existing;
        }
        DelayedQueueNames.check(queue);
        return keys.computeIfAbsent(queue, q -> {
            DelayedKeys[] created = new DelayedKeys[shards];
            for (int i = 0; i < shards; i++) {
                created[i] = new DelayedKeys(keyPrefix, q, i, shards);
            }
            return created;
        });
    }

    /** The keys of the shard holding message {@code id} of {@code queue}. */
    DelayedKeys keys(String queue, String id) {
        DelayedKeys[] all = shards(queue);
        DelayedKeys.checkId(id);
        return all[DelayedKeys.shardOf(id, all.length)];
    }

    PayloadCodec codec() {
        PayloadCodec current = codec;
        if (current == null) {
            current = new PayloadCodec(mapper.isResolvable() ? mapper.get() : new ObjectMapper().findAndRegisterModules());
            codec = current;
        }
        return current;
    }

    /**
     * Fails fast when this application consumes {@code queue} and the payload is not of the consumer's parameter type:
     * such a message could only be dead-lettered, or worse, decoded into a wrong object. A {@code String} or
     * {@code byte[]} for a JSON consumer is taken as the JSON document itself, so a {@code String} must parse as the
     * consumer's type.
     */
    private void checkPayloadType(String queue, Object payload) {
        DelayedHandler handler = handlers.of(queue);
        if (handler == null || payload == null) {
            return;
        }
        DelayedConsumerDefinition consumer = handler.definition();
        boolean fits = switch (consumer.getPayloadKind()) {
            case STRING -> payload instanceof String;
            case BYTES -> payload instanceof byte[];
            case JSON -> payload instanceof String || payload instanceof byte[]
                    || payloadType(consumer).getRawClass().isInstance(payload);
            // A forwarding channel takes whatever the producer stores.
            case AS_STORED -> true;
        };
        if (!fits) {
            throw new IllegalArgumentException("Payload of type " + payload.getClass().getName()
                    + " cannot be scheduled on delay queue \"" + queue + "\": its consumer " + consumer.describe()
                    + " takes " + displayType(consumer) + "; schedule a " + displayType(consumer)
                    + (consumer.getPayloadKind() == PayloadKind.JSON ? " (or its JSON as a String)" : ""));
        }
        if (consumer.getPayloadKind() == PayloadKind.JSON && payload instanceof String text) {
            checkJson(queue, text, consumer);
        }
    }

    /** A text for a JSON consumer is its payload's JSON: it must decode to the consumer's type, as the consumer will. */
    private void checkJson(String queue, String text, DelayedConsumerDefinition consumer) {
        JavaType type = payloadType(consumer);
        if (type.getRawClass() == Object.class) {
            return; // any JSON value decodes to Object
        }
        try {
            codec().decode(text, PayloadCodec.TEXT, PayloadKind.JSON, type);
        } catch (Exception e) {
            throw new IllegalArgumentException("Payload of type java.lang.String cannot be scheduled on delay queue \""
                    + queue + "\": its consumer " + consumer.describe() + " takes " + consumer.getPayloadType()
                    + ", so a String is taken as its JSON, and this one is not a JSON " + consumer.getPayloadType()
                    + " (" + PayloadCodec.reason(e) + "); schedule a " + consumer.getPayloadType()
                    + " or its JSON as a String", e);
        }
    }

    private JavaType payloadType(DelayedConsumerDefinition consumer) {
        return payloadTypes.computeIfAbsent(consumer.getQueue(), q -> {
            try {
                return codec().mapper().getTypeFactory().constructFromCanonical(consumer.getPayloadType());
            } catch (RuntimeException e) {
                // the consumer loop reports a type it cannot load; accept here
                return codec().mapper().getTypeFactory().constructType(Object.class);
            }
        });
    }

    private static String displayType(DelayedConsumerDefinition consumer) {
        return switch (consumer.getPayloadKind()) {
            case STRING -> String.class.getName();
            case BYTES -> "byte[]";
            case JSON, AS_STORED -> consumer.getPayloadType();
        };
    }

    @Override
    public Uni<String> schedule(String queue, Object payload, Duration delay) {
        // A random id has no earlier message to replace: stored as new, without the upsert's lookups.
        String id = UUID.randomUUID().toString();
        return store(queue, id, payload, "new", null, delay).replaceWith(id);
    }

    @Override
    public Uni<String> schedule(String queue, Object payload, Instant dueAt) {
        String id = UUID.randomUUID().toString();
        return store(queue, id, payload, "new", Objects.requireNonNull(dueAt, "dueAt"), null).replaceWith(id);
    }

    @Override
    public Uni<String> schedule(String queue, String id, Object payload, Instant dueAt) {
        return store(queue, id, payload, "upsert", Objects.requireNonNull(dueAt, "dueAt"), null).replaceWith(id);
    }

    @Override
    public Uni<String> schedule(String queue, String id, Object payload, Duration delay) {
        return store(queue, id, payload, "upsert", null, delay).replaceWith(id);
    }

    @Override
    public Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Instant dueAt) {
        return store(queue, id, payload, "absent", Objects.requireNonNull(dueAt, "dueAt"), null);
    }

    @Override
    public Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Duration delay) {
        return store(queue, id, payload, "absent", null, delay);
    }

    @Override
    public Uni<List<String>> scheduleAll(String queue, List<ScheduledMessage> messages) {
        Objects.requireNonNull(messages, "messages");
        DelayedKeys[] all = shards(queue);
        List<String> ids = new ArrayList<>(messages.size());
        // Per shard, the ARGV of its current batch; everything is encoded before anything is sent.
        List<List<String>> batches = new ArrayList<>();
        List<DelayedKeys> batchKeys = new ArrayList<>();
        List<String>[] open = newBatches(all.length);
        PayloadCodec.Encoded[] payloads = new PayloadCodec.Encoded[messages.size()];
        for (int i = 0; i < payloads.length; i++) {
            ScheduledMessage message = Objects.requireNonNull(messages.get(i), "message");
            DelayedKeys.checkId(message.id());
            payloads[i] = codec().encode(message.payload());
        }
        ProducerTrace trace = payloads.length == 0 ? ProducerTrace.NONE
                : tracing.send(queue, payloads.length == 1 ? messages.get(0).id() : null, payloads.length);
        for (int i = 0; i < payloads.length; i++) {
            ScheduledMessage message = messages.get(i);
            String id = message.id();
            int shard = DelayedKeys.shardOf(id, all.length);
            PayloadCodec.Encoded encoded = payloads[i];
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
            args.add(StoredPayload.value(encoded, trace.context()));
            args.add(StoredPayload.encoding(encoded, trace.context()));
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
            int batch = i;
            calls.add(retry.call(() -> durability == Durability.REPLICAS
                    ? redis.evalAndWait(DelayedScripts.SCHEDULE_ALL, batchKeys.get(batch).all, args, 1,
                            durabilityTimeout).map(
                                    replicated -> confirmed(replicated,
                                            (args.size() - 2) / 4 + " messages of queue " + queue,
                                            "call scheduleAll again: every message is an upsert"))
                    : redis.eval(DelayedScripts.SCHEDULE_ALL, batchKeys.get(batch).all, args)));
        }
        // Subscribed together, the calls are written to Redis back to back: one round trip.
        Uni<?> stored = calls.size() == 1 ? calls.get(0) : Uni.join().all(calls).andFailFast();
        return trace.ending(stored.invoke(ignored -> {
            metrics.scheduled(queue, ids.size());
            unconsumed.scheduledOn(queue);
        })).replaceWith(ids);
    }

    private Response confirmed(PacerRedis.ReplicatedResponse replicated, String what, String again) {
        if (replicated.replicas() >= 1) {
            return replicated.response();
        }
        Throwable lost = replicated.waitFailure();
        throw new IllegalStateException("quarkus.pacer.delayed.durability=replicas: " + what + " stored by the primary"
                + " but not confirmed by a replica " + (lost == null ? "within " + durabilityTimeout
                        + " (quarkus.pacer.delayed.durability-timeout)" : "(WAIT failed: " + lost.getMessage() + ")")
                + "; it may be delivered, or lost by a failover. Check the replicas (INFO replication) and " + again,
                lost);
    }

    @SuppressWarnings("unchecked")
    private static List<String>[] newBatches(int shards) {
        return new List[shards];
    }

    /** Bad input throws {@link IllegalArgumentException} at once, before anything is sent. */
    private Uni<Boolean> store(String queue, String id, Object payload, String mode, Instant dueAt, Duration delay) {
        keys(queue, id); // names are checked before the payload is encoded
        if (dueAt == null) {
            if (delay == null || delay.isNegative()) {
                throw new IllegalArgumentException("Delay must be zero or positive: " + delay);
            }
        }
        checkPayloadType(queue, payload);
        return store(queue, id, codec().encode(payload), mode, dueAt, delay);
    }

    /**
     * Schedules a payload typed as text (the Dev UI's test messages): stored as is, so a JSON document reaches a
     * consumer of any type. When {@code consumer} is given and takes JSON, the text must decode to its payload type.
     *
     * @throws IllegalArgumentException when the text does not fit the consumer's payload type
     */
    public Uni<String> scheduleText(String queue, String id, String text, Duration delay,
            DelayedConsumerDefinition consumer) {
        keys(queue, id);
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("Delay must be zero or positive: " + delay);
        }
        if (consumer != null && consumer.getPayloadKind() == PayloadKind.JSON) {
            checkJson(queue, text, consumer);
        }
        return store(queue, id, new PayloadCodec.Encoded(text, PayloadCodec.TEXT), "upsert", null, delay)
                .replaceWith(id);
    }

    /**
     * Stores a payload that is already encoded (the Dev UI's test messages: JSON text as typed), with no payload type
     * check.
     */
    Uni<Boolean> store(String queue, String id, PayloadCodec.Encoded encoded, String mode, Instant dueAt,
            Duration delay) {
        DelayedKeys k = keys(queue, id);
        // The trace context at the call, also when a transaction stores the message at its commit.
        ProducerTrace trace = tracing.send(queue, id, 1);
        List<String> args = List.of(id, StoredPayload.value(encoded, trace.context()),
                StoredPayload.encoding(encoded, trace.context()), mode,
                dueAt == null ? "" : Long.toString(dueAt.toEpochMilli()),
                dueAt == null ? Long.toString(delay.toMillis()) : "0",
                k.wakeChannel);
        Supplier<Uni<Response>> written = () -> durability == Durability.REPLICAS
                ? redis.evalAndWait(DelayedScripts.SCHEDULE, k.all, args, 1, durabilityTimeout)
                        .map(replicated -> confirmed(replicated, "message " + id + " of queue " + queue,
                                "schedule it again with the same id: scheduling by id is an upsert"))
                : redis.eval(DelayedScripts.SCHEDULE, k.all, args, redis.timeout(), new ScheduleBatchPart(k, args));
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

    @Override
    public Uni<Boolean> cancel(String queue, String id) {
        DelayedKeys k = keys(queue, id);
        Supplier<Uni<Boolean>> operation = () -> redis.eval(DelayedScripts.CANCEL, k.all,
                List.of(id)).map(r -> r.toInteger() == 1);
        return retry.call(() -> transactions.run("Cancelling message " + id + " of delay queue " + queue,
                operation, Boolean.TRUE));
    }

    @Override
    public Uni<Boolean> deliverNow(String queue, String id) {
        DelayedKeys k = keys(queue, id);
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
        return eachShard(queue, k -> redis.eval(DelayedScripts.SIZE, k.all, List.of()))
                .map(responses -> {
                    long scheduled = 0, overdue = 0, inFlight = 0, dead = 0, oldestAge = -1;
                    for (Response r : responses) {
                        scheduled += r.get(0).toLong();
                        overdue += r.get(1).toLong();
                        inFlight += r.get(2).toLong();
                        dead += r.get(3).toLong();
                        long oldestDue = r.get(4).toLong();
                        if (oldestDue >= 0) {
                            oldestAge = Math.max(oldestAge, Math.max(0, r.get(5).toLong() - oldestDue));
                        }
                    }
                    return new QueueDepth(queue, scheduled, overdue, inFlight, dead, oldestAge);
                });
    }

    /**
     * The waiting messages of {@code queue} due first, at most {@code limit} (1 to 1000), payloads cut to
     * {@code maxPayloadBytes}; read only.
     */
    public Uni<List<WaitingMessage>> waiting(String queue, int limit, int maxPayloadBytes) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("Waiting message limit must be between 1 and 1000: " + limit);
        }
        return eachShard(queue, k -> redis.eval(DelayedScripts.WAITING, k.all,
                List.of(Integer.toString(limit), Integer.toString(maxPayloadBytes))))
                .map(responses -> {
                    List<WaitingMessage> messages = new ArrayList<>();
                    for (Response r : responses) {
                        for (int i = 0; i + 6 < r.size(); i += 7) {
                            String cut = r.get(i + 4).toString();
                            StoredPayload payload = StoredPayload.read(cut, r.get(i + 5).toString());
                            String encoding = payload.encoding();
                            String stored = payload.value();
                            long length = r.get(i + 6).toLong() - (cut.length() - stored.length());
                            // A cut Base64 text cannot be decoded: show it as stored.
                            String text = PayloadCodec.BYTES.equals(encoding) ? "base64:" + stored : stored;
                            messages.add(new WaitingMessage(r.get(i).toString(), queue,
                                    Instant.ofEpochMilli(r.get(i + 1).toLong()), r.get(i + 2).toInteger(),
                                    r.get(i + 3).toInteger(), text, stored.length() < length));
                        }
                    }
                    messages.sort(Comparator.comparing(WaitingMessage::dueAt).thenComparing(WaitingMessage::id));
                    return messages.size() > limit ? new ArrayList<>(messages.subList(0, limit)) : messages;
                });
    }

    /** Where unconsumed queues are tracked. */
    UnconsumedQueues unconsumed() {
        return unconsumed;
    }

    @Override
    public Uni<List<DeadLetter>> deadLetters(String queue, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("Dead letter limit must be between 1 and 1000: " + limit);
        }
        return eachShard(queue, k -> redis.eval(DelayedScripts.DEAD_LETTERS, k.all,
                List.of(Integer.toString(limit)))).map(responses -> {
                    List<DeadLetter> letters = new ArrayList<>();
                    for (Response r : responses) {
                        for (int i = 0; i + 5 < r.size(); i += 6) {
                            letters.add(new DeadLetter(r.get(i).toString(), queue, r.get(i + 1).toString(),
                                    Instant.ofEpochMilli(r.get(i + 2).toLong()), r.get(i + 3).toInteger(),
                                    StoredPayload.read(r.get(i + 4).toString(), r.get(i + 5).toString()).bytes()));
                        }
                    }
                    letters.sort(Comparator.comparing(DeadLetter::deadAt));
                    return letters.size() > limit ? new ArrayList<>(letters.subList(0, limit)) : letters;
                });
    }

    @Override
    public Uni<Boolean> replay(String queue, String id) {
        return replay(keys(queue, id), id, 1, "").map(r -> r.get(0).toLong() == 1);
    }

    @Override
    public Uni<Long> replayDeadLetters(String queue) {
        return sumOverShards(queue, k -> replayAll(k, "", -1, 0));
    }

    /**
     * Replays the dead letters of a shard that were dead-lettered when the first batch ran (the cut-off), batch by
     * batch: replayed messages that fail again are dead-lettered after the cut-off and stay, and the batches visit at
     * most as many dead letters as the first batch counted, so the replay always ends.
     */
    private Uni<Long> replayAll(DelayedKeys k, String cutoff, long budget, long visitedBefore) {
        return replay(k, "", DelayedScripts.DEAD_LETTER_BATCH, cutoff).flatMap(r -> {
            long replayed = r.get(0).toLong();
            long visited = visitedBefore + r.get(2).toLong();
            long bound = budget < 0 ? r.get(3).toLong() : budget;
            if (r.get(2).toLong() < DelayedScripts.DEAD_LETTER_BATCH || visited >= bound) {
                return Uni.createFrom().item(replayed);
            }
            return replayAll(k, r.get(1).toString(), bound, visited).map(rest -> replayed + rest);
        });
    }

    private Uni<Response> replay(DelayedKeys k, String id, int limit, String cutoff) {
        return retry.call(() -> redis.eval(DelayedScripts.REPLAY, k.all,
                List.of(id, Integer.toString(limit), k.wakeChannel, cutoff)));
    }

    @Override
    public Uni<Boolean> purge(String queue, String id) {
        return purge(keys(queue, id), id, 1).map(n -> n == 1);
    }

    @Override
    public Uni<Long> purgeDeadLetters(String queue) {
        return sumOverShards(queue, k -> repeatUntilShort(() -> purge(k, "", DelayedScripts.DEAD_LETTER_BATCH)));
    }

    private Uni<Long> purge(DelayedKeys k, String id, int limit) {
        return retry.call(() -> redis.eval(DelayedScripts.PURGE, k.all, List.of(id, Integer.toString(limit))))
                .map(Response::toLong);
    }

    private <T> Uni<List<T>> eachShard(String queue, Function<DelayedKeys, Uni<T>> call) {
        DelayedKeys[] all = shards(queue);
        if (all.length == 1) {
            return retry.call(() -> call.apply(all[0])).map(List::of);
        }
        List<Uni<T>> calls = new ArrayList<>(all.length);
        for (DelayedKeys k : all) {
            calls.add(retry.call(() -> call.apply(k)));
        }
        return Uni.join().all(calls).andFailFast();
    }

    /** Runs {@code call} on the shards one after the other (each may loop), adding up the results. */
    private Uni<Long> sumOverShards(String queue, Function<DelayedKeys, Uni<Long>> call) {
        DelayedKeys[] all = shards(queue);
        Uni<Long> total = Uni.createFrom().item(0L);
        for (DelayedKeys k : all) {
            total = total.flatMap(sum -> call.apply(k).map(n -> sum + n));
        }
        return total;
    }

    /** Repeats a bounded batch call until a batch comes back short; returns the total. */
    private static Uni<Long> repeatUntilShort(Supplier<Uni<Long>> batch) {
        return batch.get().flatMap(n -> n < DelayedScripts.DEAD_LETTER_BATCH ? Uni.createFrom().item(n)
                : repeatUntilShort(batch).map(rest -> n + rest));
    }
}
