package io.quarkiverse.pacer.runtime.delay;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.quarkiverse.pacer.runtime.delay.producer.ProducerRetry;
import io.smallrye.mutiny.Uni;

/** The shard keys of every delay queue, and the fan-out of a queue-wide operation over its shards. */
public final class QueueShards {

    private final String keyPrefix;
    private final int shards;
    private final ProducerRetry retry;
    private final ConcurrentHashMap<String, DelayedKeys[]> keys = new ConcurrentHashMap<>();

    public QueueShards(String keyPrefix, int shards, ProducerRetry retry) {
        this.keyPrefix = keyPrefix;
        this.shards = Math.max(1, shards);
        this.retry = retry;
    }

    /** The keys of every shard of {@code queue}. */
    public DelayedKeys[] of(String queue) {
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
    public DelayedKeys of(String queue, String id) {
        DelayedKeys[] all = of(queue);
        DelayedKeys.checkId(id);
        return all[DelayedKeys.shardOf(id, all.length)];
    }

    /** Runs {@code call} on every shard at once (each retried), the results in shard order. */
    public <T> Uni<List<T>> each(String queue, Function<DelayedKeys, Uni<T>> call) {
        DelayedKeys[] all = of(queue);
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
    public Uni<Long> sum(String queue, Function<DelayedKeys, Uni<Long>> call) {
        DelayedKeys[] all = of(queue);
        Uni<Long> total = Uni.createFrom().item(0L);
        for (DelayedKeys k : all) {
            total = total.flatMap(sum -> call.apply(k).map(n -> sum + n));
        }
        return total;
    }
}
