package io.quarkiverse.pacer.runtime.delay.inspection;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.QueueShards;
import io.quarkiverse.pacer.runtime.delay.StoredPayload;
import io.quarkiverse.pacer.runtime.delay.producer.ProducerRetry;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/** Listing, replaying and purging dead letters; replay and purge of all repeat a bounded call per shard. */
public final class DeadLetterOperations {

    private final PacerRedis redis;
    private final QueueShards shards;
    private final ProducerRetry retry;

    public DeadLetterOperations(PacerRedis redis, QueueShards shards, ProducerRetry retry) {
        this.redis = redis;
        this.shards = shards;
        this.retry = retry;
    }

    public Uni<List<DeadLetter>> deadLetters(String queue, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("Dead letter limit must be between 1 and 1000: " + limit);
        }
        return shards.each(queue, k -> redis.eval(DelayedScripts.DEAD_LETTERS, k.all,
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

    public Uni<Boolean> replay(String queue, String id) {
        return replay(shards.of(queue, id), id, 1, "").map(r -> r.get(0).toLong() == 1);
    }

    public Uni<Long> replayDeadLetters(String queue) {
        return shards.sum(queue, k -> replayAll(k, "", -1, 0));
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

    public Uni<Boolean> purge(String queue, String id) {
        return purge(shards.of(queue, id), id, 1).map(n -> n == 1);
    }

    public Uni<Long> purgeDeadLetters(String queue) {
        return shards.sum(queue, k -> repeatUntilShort(() -> purge(k, "", DelayedScripts.DEAD_LETTER_BATCH)));
    }

    private Uni<Long> purge(DelayedKeys k, String id, int limit) {
        return retry.call(() -> redis.eval(DelayedScripts.PURGE, k.all, List.of(id, Integer.toString(limit))))
                .map(Response::toLong);
    }

    /** Repeats a bounded batch call until a batch comes back short; returns the total. */
    private static Uni<Long> repeatUntilShort(Supplier<Uni<Long>> batch) {
        return batch.get().flatMap(n -> n < DelayedScripts.DEAD_LETTER_BATCH ? Uni.createFrom().item(n)
                : repeatUntilShort(batch).map(rest -> n + rest));
    }
}
