package io.quarkiverse.pacer.runtime.delay;

import java.util.List;

import io.quarkiverse.pacer.runtime.redis.EncodedArgs;

/**
 * The Redis keys of one delay queue, or of one shard of it. They share the hash tag {@code {<queue>}} (with
 * {@code quarkus.pacer.delayed.shards} above 1: {@code {<queue>#<shard>}}), so every script runs on one Redis Cluster
 * slot:
 * <ul>
 * <li>{@code <prefix>:d:{<queue>}:due} ZSET of message ids scored by due time;</li>
 * <li>{@code <prefix>:d:{<queue>}:inflight} ZSET of claimed ids scored by lease deadline;</li>
 * <li>{@code <prefix>:d:{<queue>}:dead} ZSET of dead-lettered ids scored by dead-letter time;</li>
 * <li>{@code <prefix>:d:{<queue>}:messages} HASH of every message of the shard, one field per message: id to
 * {@code <encoding><due millis>:<attempts>:<redeliveries>:<payload>} (one field rather than one key per message keeps
 * a waiting message under half the memory); the field is deleted on ack, cancel and purge;</li>
 * <li>{@code <prefix>:d:{<queue>}:claims} HASH of the claim token of each in-flight message;</li>
 * <li>{@code <prefix>:d:{<queue>}:reasons} HASH of the failure reason of each dead letter;</li>
 * <li>{@code <prefix>:d:{<queue>}:wake} pub/sub channel (not a key) announcing a new earliest due time.</li>
 * </ul>
 */
public final class DelayedKeys {

    public final String queue;
    public final int shard;
    final String due;
    final String inflight;
    final String dead;
    final String messages;
    final String claims;
    final String reasons;
    public final String wakeChannel;
    /** The KEYS of every delayed script, in the order their headers number them. */
    public final List<String> all;

    DelayedKeys(String keyPrefix, String queue, int shard, int shards) {
        this.queue = queue;
        this.shard = shard;
        String base = keyPrefix + ":d:{" + (shards == 1 ? queue : queue + "#" + shard) + "}:";
        this.due = base + "due";
        this.inflight = base + "inflight";
        this.dead = base + "dead";
        this.messages = base + "messages";
        this.claims = base + "claims";
        this.reasons = base + "reasons";
        this.wakeChannel = base + "wake";
        // Encoded once: every script call on the shard sends them.
        this.all = EncodedArgs.of(due, inflight, dead, messages, claims, reasons);
    }

    /** The shard holding message {@code id}: stable across JVMs, since {@code String.hashCode} is specified. */
    public static int shardOf(String id, int shards) {
        return shards == 1 ? 0 : Math.floorMod(id.hashCode(), shards);
    }

    public static void checkId(String id) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("Delayed message id must not be empty");
        }
    }
}
