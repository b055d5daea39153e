package io.quarkiverse.pacer.runtime.delay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/**
 * The {@link ReactiveDelayedQueue} bean: every operation is one Lua script call (replay and purge of all dead letters
 * repeat a bounded call).
 */
@Singleton
public class RedisDelayedQueue implements ReactiveDelayedQueue {

    private final PacerRedis redis;
    private final String keyPrefix;
    private final Instance<ObjectMapper> mapper;
    private final ConcurrentHashMap<String, DelayedKeys> keys = new ConcurrentHashMap<>();
    private volatile PayloadCodec codec;

    RedisDelayedQueue(PacerRedis redis, PacerConfig config, Instance<ObjectMapper> mapper) {
        this.redis = redis;
        this.keyPrefix = config.keyPrefix();
        this.mapper = mapper;
    }

    DelayedKeys keys(String queue) {
        DelayedKeys existing = keys.get(queue);
        if (existing != null) {
            return existing;
        }
        DelayedKeys.checkQueueName(queue);
        return keys.computeIfAbsent(queue, q -> new DelayedKeys(keyPrefix, q));
    }

    String keyPrefix() {
        return keyPrefix;
    }

    PacerRedis redis() {
        return redis;
    }

    PayloadCodec codec() {
        PayloadCodec current = codec;
        if (current == null) {
            current = new PayloadCodec(mapper.isResolvable() ? mapper.get() : new ObjectMapper().findAndRegisterModules());
            codec = current;
        }
        return current;
    }

    @Override
    public Uni<String> schedule(String queue, Object payload, Duration delay) {
        return schedule(queue, UUID.randomUUID().toString(), payload, delay);
    }

    @Override
    public Uni<String> schedule(String queue, Object payload, Instant dueAt) {
        return schedule(queue, UUID.randomUUID().toString(), payload, dueAt);
    }

    @Override
    public Uni<String> schedule(String queue, String id, Object payload, Instant dueAt) {
        return store(queue, id, payload, "upsert", dueAt, null).replaceWith(id);
    }

    @Override
    public Uni<String> schedule(String queue, String id, Object payload, Duration delay) {
        return store(queue, id, payload, "upsert", null, delay).replaceWith(id);
    }

    @Override
    public Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Instant dueAt) {
        return store(queue, id, payload, "absent", dueAt, null);
    }

    @Override
    public Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Duration delay) {
        return store(queue, id, payload, "absent", null, delay);
    }

    private Uni<Boolean> store(String queue, String id, Object payload, String mode, Instant dueAt, Duration delay) {
        DelayedKeys k;
        PayloadCodec.Encoded encoded;
        try {
            k = keys(queue);
            DelayedKeys.checkId(id);
            if (dueAt == null) {
                Objects.requireNonNull(delay, "delay");
                if (delay.isNegative()) {
                    throw new IllegalArgumentException("Delay must not be negative: " + delay);
                }
            }
            encoded = codec().encode(payload);
        } catch (IllegalArgumentException | NullPointerException e) {
            // Bad input fails at once, even before subscription, like a blocking call would.
            throw e instanceof NullPointerException ? new IllegalArgumentException(e.getMessage(), e) : e;
        }
        List<String> args = List.of(k.messagePrefix, id, encoded.value(), encoded.encoding(), mode,
                dueAt == null ? "" : Long.toString(dueAt.toEpochMilli()),
                dueAt == null ? Long.toString(delay.toMillis()) : "0",
                k.wakeChannel);
        return redis.eval(DelayedScripts.SCHEDULE, k.dueInflightDead, args)
                .map(r -> r.get(0).toInteger() == 1);
    }

    @Override
    public Uni<Boolean> cancel(String queue, String id) {
        DelayedKeys k = keys(queue);
        DelayedKeys.checkId(id);
        return redis.eval(DelayedScripts.CANCEL, k.dueInflightDead, List.of(k.messagePrefix, id))
                .map(r -> r.toInteger() == 1);
    }

    @Override
    public Uni<Long> size(String queue) {
        return sizes(queue).map(r -> r.get(0).toLong() + r.get(1).toLong());
    }

    @Override
    public Uni<Long> deadLetterCount(String queue) {
        return sizes(queue).map(r -> r.get(2).toLong());
    }

    /** {due, in flight, dead} counts of a queue. */
    Uni<Response> sizes(String queue) {
        DelayedKeys k = keys(queue);
        return redis.eval(DelayedScripts.SIZE, k.dueInflightDead, List.of());
    }

    @Override
    public Uni<List<DeadLetter>> deadLetters(String queue, int limit) {
        DelayedKeys k = keys(queue);
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("Dead letter limit must be between 1 and 1000: " + limit);
        }
        return redis.eval(DelayedScripts.DEAD_LETTERS, k.deadOnly, List.of(k.messagePrefix, Integer.toString(limit)))
                .map(r -> {
                    List<DeadLetter> letters = new ArrayList<>(r.size() / 6);
                    for (int i = 0; i + 5 < r.size(); i += 6) {
                        letters.add(new DeadLetter(r.get(i).toString(), queue, r.get(i + 1).toString(),
                                Instant.ofEpochMilli(r.get(i + 2).toLong()), r.get(i + 3).toInteger(),
                                PayloadCodec.bytes(r.get(i + 4).toString(), r.get(i + 5).toString())));
                    }
                    return letters;
                });
    }

    @Override
    public Uni<Boolean> replay(String queue, String id) {
        DelayedKeys.checkId(id);
        return replay(queue, id, 1).map(n -> n == 1);
    }

    @Override
    public Uni<Long> replayDeadLetters(String queue) {
        return repeatUntilShort(() -> replay(queue, "", DelayedScripts.DEAD_LETTER_BATCH));
    }

    private Uni<Long> replay(String queue, String id, int limit) {
        DelayedKeys k = keys(queue);
        return redis.eval(DelayedScripts.REPLAY, k.dueDead,
                List.of(k.messagePrefix, id, Integer.toString(limit), k.wakeChannel)).map(Response::toLong);
    }

    @Override
    public Uni<Boolean> purge(String queue, String id) {
        DelayedKeys.checkId(id);
        return purge(queue, id, 1).map(n -> n == 1);
    }

    @Override
    public Uni<Long> purgeDeadLetters(String queue) {
        return repeatUntilShort(() -> purge(queue, "", DelayedScripts.DEAD_LETTER_BATCH));
    }

    private Uni<Long> purge(String queue, String id, int limit) {
        DelayedKeys k = keys(queue);
        return redis.eval(DelayedScripts.PURGE, k.deadOnly, List.of(k.messagePrefix, id, Integer.toString(limit)))
                .map(Response::toLong);
    }

    /** Repeats a bounded batch call until a batch comes back short; returns the total. */
    private static Uni<Long> repeatUntilShort(java.util.function.Supplier<Uni<Long>> batch) {
        return batch.get().flatMap(n -> n < DelayedScripts.DEAD_LETTER_BATCH ? Uni.createFrom().item(n)
                : repeatUntilShort(batch).map(rest -> n + rest));
    }
}
