package io.quarkiverse.pacer.runtime.delay;

import java.util.List;

/**
 * The Redis keys of one delay queue, or of one shard of it. They share the hash tag {@code {<queue>}} (with
 * {@code quarkus.pacer.delayed.shards} above 1: {@code {<queue>#<shard>}}), so every script runs on one Redis Cluster
 * slot:
 * <ul>
 * <li>{@code <prefix>:d:{<queue>}:due} ZSET of message ids scored by due time;</li>
 * <li>{@code <prefix>:d:{<queue>}:inflight} ZSET of claimed ids scored by lease deadline;</li>
 * <li>{@code <prefix>:d:{<queue>}:dead} ZSET of dead-lettered ids scored by dead-letter time;</li>
 * <li>{@code <prefix>:d:{<queue>}:m:<id>} HASH of one message (payload, encoding, due time, attempts,
 * redeliveries, claim token, failure reason), deleted on ack, cancel and purge;</li>
 * <li>{@code <prefix>:d:{<queue>}:wake} pub/sub channel (not a key) announcing a new earliest due time.</li>
 * </ul>
 */
final class DelayedKeys {

    final String queue;
    final int shard;
    final String due;
    final String inflight;
    final String dead;
    final String messagePrefix;
    final String wakeChannel;
    final List<String> dueInflightDead;
    final List<String> dueInflight;
    final List<String> dueDead;
    final List<String> inflightOnly;
    final List<String> deadOnly;

    DelayedKeys(String keyPrefix, String queue, int shard, int shards) {
        this.queue = queue;
        this.shard = shard;
        String base = keyPrefix + ":d:{" + (shards == 1 ? queue : queue + "#" + shard) + "}:";
        this.due = base + "due";
        this.inflight = base + "inflight";
        this.dead = base + "dead";
        this.messagePrefix = base + "m:";
        this.wakeChannel = base + "wake";
        this.dueInflightDead = List.of(due, inflight, dead);
        this.dueInflight = List.of(due, inflight);
        this.dueDead = List.of(due, dead);
        this.inflightOnly = List.of(inflight);
        this.deadOnly = List.of(dead);
    }

    /** The shard holding message {@code id}: stable across JVMs, since {@code String.hashCode} is specified. */
    static int shardOf(String id, int shards) {
        return shards == 1 ? 0 : Math.floorMod(id.hashCode(), shards);
    }

    static void checkId(String id) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("Delayed message id must not be empty");
        }
    }
}
