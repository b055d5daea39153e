package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkiverse.pacer.delay.DurabilityUnconfirmedException;
import io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig.Durability;
import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.redis.Batchable;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.NoReplicaException;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/**
 * The producer's writes: a script call, followed by WAIT on the same connection when
 * {@code quarkus.pacer.delayed.durability=replicas} (one WAIT shared by the durable writes that reach a master
 * together). A write to a master known to have no connected replica is refused before it runs
 * ({@link DurabilityUnavailableException}: not stored).
 */
final class DurableWrites {

    private final PacerRedis redis;
    private final Durability durability;
    /** {@code quarkus.pacer.delayed."<queue>".durability}, where set. */
    private final Map<String, Durability> byQueue;
    private final Duration durabilityTimeout;

    /**
     * @param durability the default, {@code quarkus.pacer.delayed.durability}
     * @param byQueue the queues' own settings, where set
     */
    DurableWrites(PacerRedis redis, Durability durability, Map<String, Durability> byQueue, Duration durabilityTimeout) {
        this.redis = redis;
        this.durability = durability;
        this.byQueue = Map.copyOf(byQueue);
        this.durabilityTimeout = durabilityTimeout;
    }

    /** Whether writes to {@code queue} wait for a replica. */
    boolean waitsForReplicas(String queue) {
        return (byQueue.isEmpty() ? durability : byQueue.getOrDefault(queue, durability)) == Durability.REPLICAS;
    }

    /**
     * The script's answer, with the number of replicas that confirmed it ({@code -1} when durability is primary, as
     * nothing waited); durable writes of {@code batchable}'s group share one call.
     */
    private Uni<PacerRedis.ReplicatedResponse> write(String queue, LuaScript script, List<String> keys,
            List<String> args, Batchable batchable) {
        if (!waitsForReplicas(queue)) {
            return redis.eval(script, keys, args).map(r -> new PacerRedis.ReplicatedResponse(r, -1, null));
        }
        return redis.evalAndWait(script, keys, args, 1, durabilityTimeout, batchable);
    }

    /**
     * A script call like {@link #write(LuaScript, DelayedKeys, List, String, String)}; without replicas to wait for, it
     * may travel in one call with the others of {@code batchable}'s group queued on the connection.
     */
    Uni<Response> write(LuaScript script, DelayedKeys k, List<String> args, Batchable batchable, String what,
            String again) {
        return waitsForReplicas(k.queue) ? checked(script, k, args, batchable, what, again)
                : redis.eval(script, k.all, args, redis.timeout(), batchable);
    }

    /**
     * The batchable script call of {@link #write(LuaScript, List, List, Batchable, String, String)} for a caller that
     * blocks on the answer; only when no replica is waited for.
     */
    CompletableFuture<Response> writeFuture(LuaScript script, List<String> keys, List<String> args,
            Batchable batchable) {
        return redis.evalFuture(script, keys, args, redis.timeout(), batchable);
    }

    /**
     * The durable write of {@link #write(LuaScript, DelayedKeys, List, Batchable, String, String)} for a caller that
     * blocks on the answer (durability is replicas for {@code k}'s queue): the same answer and failures, without a
     * {@link Uni} chain.
     */
    CompletableFuture<Response> writeDurableFuture(LuaScript script, DelayedKeys k, List<String> args,
            Batchable batchable, String what, String again) {
        return redis.evalAndWaitFuture(script, k.all, args, 1, durabilityTimeout, batchable)
                .handle((replicated, failure) -> {
                    if (failure == null) {
                        return confirmed(k.queue, replicated, what, again);
                    }
                    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                            ? failure.getCause()
                            : failure;
                    if (cause instanceof NoReplicaException noReplica) {
                        throw refused(k, what, noReplica);
                    }
                    throw cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
                });
    }

    /**
     * A script call on the shard {@code k} that fails when durability is replicas and no replica confirmed it, or at
     * once, unwritten, when the shard's master is known to have no replica.
     */
    Uni<Response> write(LuaScript script, DelayedKeys k, List<String> args, String what, String again) {
        return checked(script, k, args, null, what, again);
    }

    /** The write of {@link #write(LuaScript, DelayedKeys, List, String, String)}, in one call with its group's. */
    private Uni<Response> checked(LuaScript script, DelayedKeys k, List<String> args, Batchable batchable, String what,
            String again) {
        return write(k.queue, script, k.all, args, batchable).map(replicated -> confirmed(k.queue, replicated, what,
                again)).onFailure(NoReplicaException.class).transform(failure -> refused(k, what,
                        (NoReplicaException) failure));
    }

    /**
     * Whether a durable write to shard {@code k} is known to be refused at once (its master has no connected replica):
     * a message without an id can go to another shard.
     */
    boolean refusedAtOnce(DelayedKeys k) {
        return waitsForReplicas(k.queue) && redis.knownWithoutReplica(k.all);
    }

    /** The failure of a durable write refused because its shard's master has no replica: nothing was stored. */
    private static DurabilityUnavailableException refused(DelayedKeys k, String what, NoReplicaException failure) {
        return new DurabilityUnavailableException(k.queue, k.shard, failure.node(), "quarkus.pacer.delayed.durability"
                + "=replicas: " + what + " was not stored: shard " + k.shard + " of the queue lives on Redis master "
                + (failure.node().indexOf(':') > 0 ? failure.node() : "of client " + failure.node())
                + ", which has no connected replica, so no replica could confirm the write (on Redis"
                + " Cluster, a replica promoted after its master failed has none until a node replicates it). Add a"
                + " replica to that master, or set quarkus.pacer.delayed.durability=primary; other shards are not"
                + " affected, and the message can be scheduled again", failure);
    }

    /** The response when no replica was required or one confirmed it; otherwise the failed-but-stored error. */
    Response confirmed(String queue, PacerRedis.ReplicatedResponse replicated, String what, String again) {
        if (!waitsForReplicas(queue) || replicated.replicas() >= 1) {
            return replicated.response();
        }
        Throwable lost = replicated.waitFailure();
        throw new DurabilityUnconfirmedException(queue, "quarkus.pacer.delayed.durability=replicas: " + what
                + " stored by the primary"
                + " but not confirmed by a replica " + (lost == null ? "within " + durabilityTimeout
                        + " (quarkus.pacer.delayed.durability-timeout)" : "(WAIT failed: " + lost.getMessage() + ")")
                + "; it may be delivered, or lost by a failover. Check the replicas (INFO replication) and " + again,
                lost);
    }
}
