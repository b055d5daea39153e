package io.quarkiverse.pacer.runtime.scheduler;

import java.util.List;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;

/**
 * The Redis side of PACER scheduler jobs: one HASH per job, {@code <key-prefix>:s:{<job id>}}, written only by the
 * scripts {@code scheduler-*.lua}, each with a time to live that every instance scheduling the job renews.
 */
final class JobStateStore {

    private static final LuaScript READ = LuaScript.load("scheduler-read");
    private static final LuaScript CLAIM = LuaScript.load("scheduler-claim");
    private static final LuaScript LEASE = LuaScript.load("scheduler-lease");
    private static final LuaScript PAUSE = LuaScript.load("scheduler-pause");

    /** What a claim came to (scheduler-claim.lua). */
    enum Claim {
        /** Another instance moved the job first, or it is paused, or the tick is not due: nothing to do. */
        LOST,
        /** This instance owns the tick. */
        CLAIMED,
        /** The tick is skipped: the previous run still holds the lease (concurrentExecution = SKIP). */
        BUSY
    }

    /** A claim's outcome and the Redis time it was decided at. */
    record ClaimResult(Claim claim, long now) {
    }

    private final PacerRedis redis;
    private final String keyPrefix;

    JobStateStore(PacerRedis redis, String keyPrefix) {
        this.redis = redis;
        this.keyPrefix = keyPrefix;
    }

    String key(String jobId) {
        return keyPrefix + ":s:{" + jobId + "}";
    }

    Uni<JobState> read(String key, long ttlMillis) {
        return redis.eval(READ, List.of(key), List.of(Long.toString(ttlMillis))).map(JobState::of);
    }

    /**
     * @param expectedNext the next fire time read, {@code null} to initialize the job
     * @param run scheduled fire time of the tick to run, {@code null} to run none
     */
    Uni<ClaimResult> claim(String key, Long expectedNext, String spec, long newNext, Long run, boolean skipConcurrent,
            long leaseMillis, String token, long ttlMillis) {
        return redis.eval(CLAIM, List.of(key), List.of(expectedNext == null ? "" : expectedNext.toString(), spec,
                Long.toString(newNext), run == null ? "" : run.toString(), skipConcurrent ? "1" : "0",
                Long.toString(leaseMillis), token, Long.toString(ttlMillis)))
                .map(reply -> new ClaimResult(claim(reply.get(0).toInteger()), reply.get(1).toLong()));
    }

    private static Claim claim(int outcome) {
        switch (outcome) {
            case 1:
                return Claim.CLAIMED;
            case 2:
                return Claim.BUSY;
            default:
                return Claim.LOST;
        }
    }

    Uni<Boolean> renewLease(String key, String token, long leaseMillis) {
        return redis.eval(LEASE, List.of(key), List.of(token, Long.toString(leaseMillis)))
                .map(reply -> reply.toInteger() == 1);
    }

    Uni<Boolean> releaseLease(String key, String token) {
        return redis.eval(LEASE, List.of(key), List.of(token, "0")).map(reply -> reply.toInteger() == 1);
    }

    Uni<Void> pause(String key, boolean paused, long ttlMillis) {
        return redis.eval(PAUSE, List.of(key), List.of(paused ? "1" : "0", Long.toString(ttlMillis))).replaceWithVoid();
    }
}
