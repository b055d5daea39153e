package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig.Durability;
import io.quarkiverse.pacer.runtime.redis.Batchable;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/**
 * The producer's writes: a script call, followed by WAIT on the same connection when
 * {@code quarkus.pacer.delayed.durability=replicas}.
 */
final class DurableWrites {

    private final PacerRedis redis;
    private final Durability durability;
    private final Duration durabilityTimeout;

    DurableWrites(PacerRedis redis, Durability durability, Duration durabilityTimeout) {
        this.redis = redis;
        this.durability = durability;
        this.durabilityTimeout = durabilityTimeout;
    }

    boolean waitsForReplicas() {
        return durability == Durability.REPLICAS;
    }

    /**
     * The script's answer, with the number of replicas that confirmed it ({@code -1} when durability is primary, as
     * nothing waited).
     */
    Uni<PacerRedis.ReplicatedResponse> write(LuaScript script, List<String> keys, List<String> args) {
        if (!waitsForReplicas()) {
            return redis.eval(script, keys, args).map(r -> new PacerRedis.ReplicatedResponse(r, -1, null));
        }
        return redis.evalAndWait(script, keys, args, 1, durabilityTimeout);
    }

    /**
     * A script call like {@link #write(LuaScript, List, List, String, String)}; without replicas to wait for, it may
     * travel in one call with the others of {@code batchable}'s group queued on the connection.
     */
    Uni<Response> write(LuaScript script, List<String> keys, List<String> args, Batchable batchable, String what,
            String again) {
        return waitsForReplicas() ? write(script, keys, args, what, again)
                : redis.eval(script, keys, args, redis.timeout(), batchable);
    }

    /**
     * The batchable script call of {@link #write(LuaScript, List, List, Batchable, String, String)} for a caller that
     * blocks on the answer; only when no replica is waited for.
     */
    CompletableFuture<Response> writeFuture(LuaScript script, List<String> keys, List<String> args,
            Batchable batchable) {
        return redis.evalFuture(script, keys, args, redis.timeout(), batchable);
    }

    /** A script call that fails when durability is replicas and no replica confirmed it. */
    Uni<Response> write(LuaScript script, List<String> keys, List<String> args, String what, String again) {
        return write(script, keys, args).map(replicated -> confirmed(replicated, what, again));
    }

    /** The response when no replica was required or one confirmed it; otherwise the failed-but-stored error. */
    Response confirmed(PacerRedis.ReplicatedResponse replicated, String what, String again) {
        if (!waitsForReplicas() || replicated.replicas() >= 1) {
            return replicated.response();
        }
        Throwable lost = replicated.waitFailure();
        throw new IllegalStateException("quarkus.pacer.delayed.durability=replicas: " + what + " stored by the primary"
                + " but not confirmed by a replica " + (lost == null ? "within " + durabilityTimeout
                        + " (quarkus.pacer.delayed.durability-timeout)" : "(WAIT failed: " + lost.getMessage() + ")")
                + "; it may be delivered, or lost by a failover. Check the replicas (INFO replication) and " + again,
                lost);
    }
}
