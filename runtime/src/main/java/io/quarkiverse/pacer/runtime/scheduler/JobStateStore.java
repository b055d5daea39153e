package io.quarkiverse.pacer.runtime.scheduler;

import java.util.List;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/**
 * The Redis side of PACER scheduler jobs: per job a HASH, {@code <key-prefix>:s:{<job id>}}, and the ZSET of its runs
 * in flight with their leases, {@code <key-prefix>:s:{<job id>}:runs} (same slot), written only by the scripts
 * {@code scheduler-*.lua}, each with a time to live that every instance scheduling the job renews.
 */
final class JobStateStore {

    private static final LuaScript READ = LuaScript.load("scheduler-read");
    private static final LuaScript CLAIM = LuaScript.load("scheduler-claim");
    private static final LuaScript RERUN = LuaScript.load("scheduler-rerun");
    private static final LuaScript LEASE = LuaScript.load("scheduler-lease");
    private static final LuaScript PAUSE = LuaScript.load("scheduler-pause");

    /** What a claim came to (scheduler-claim.lua). */
    enum Claim {
        /** Another instance moved the job first, or it is paused, or the tick is not due: nothing to do. */
        LOST,
        /** This instance owns the tick. */
        CLAIMED,
        /** The tick is skipped: a run of the job is in flight (concurrentExecution = SKIP). */
        BUSY,
        /** The expired run is dropped: its tick was started {@link RunLease#MAX_STARTS} times (scheduler-rerun.lua). */
        DROPPED
    }

    /**
     * A claim's outcome and the Redis time it was decided at; after a claim that did not lose, also the run in flight
     * whose lease ends first ({@code null} for none), as a read would show it.
     */
    record ClaimResult(Claim claim, long now, RunLease run) {
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

    /** The job's runs in flight, next to its HASH {@code key}. */
    static String runsKey(String key) {
        return key + ":runs";
    }

    Uni<JobState> read(String key, long ttlMillis) {
        return redis.eval(READ, List.of(key, runsKey(key)), List.of(Long.toString(ttlMillis))).map(JobState::of);
    }

    /**
     * @param expectedNext the next fire time read, {@code null} to initialize the job
     * @param run scheduled fire time of the tick to run, {@code null} to run none
     * @param member the run's member in the job's runs ({@link RunLease#member}), when {@code run} is set
     * @param runBy the latest Redis time {@code run} may still start at (its grace period), {@code null} for no bound:
     *        the claim loses when Redis time is past it
     */
    Uni<ClaimResult> claim(String key, Long expectedNext, String spec, long newNext, Long run, boolean skipConcurrent,
            long leaseMillis, String member, long ttlMillis, Long runBy) {
        return redis.eval(CLAIM, List.of(key, runsKey(key)), List.of(expectedNext == null ? "" : expectedNext.toString(),
                spec, Long.toString(newNext), run == null ? "" : run.toString(), skipConcurrent ? "1" : "0",
                Long.toString(leaseMillis), member, Long.toString(ttlMillis), runBy == null ? "" : runBy.toString()))
                .map(JobStateStore::claimResult);
    }

    /**
     * Takes over a run whose lease expired.
     *
     * @param expired the expired run's member, as read
     * @param member this instance's member for the tick's next start, {@code null} to drop the run
     */
    Uni<ClaimResult> rerun(String key, String expired, String member, long leaseMillis, long ttlMillis) {
        return redis.eval(RERUN, List.of(key, runsKey(key)), List.of(expired, member == null ? "" : member,
                Long.toString(leaseMillis), Long.toString(ttlMillis))).map(JobStateStore::claimResult);
    }

    private static ClaimResult claimResult(Response reply) {
        return new ClaimResult(claim(reply.get(0).toInteger()), reply.get(1).toLong(),
                reply.size() > 3 ? JobState.run(reply.get(2), reply.get(3)) : null);
    }

    private static Claim claim(int outcome) {
        switch (outcome) {
            case 1:
                return Claim.CLAIMED;
            case 2:
                return Claim.BUSY;
            case 3:
                return Claim.DROPPED;
            default:
                return Claim.LOST;
        }
    }

    /** @return whether the run still held its lease */
    Uni<Boolean> renewLease(String key, String member, long leaseMillis) {
        return redis.eval(LEASE, List.of(runsKey(key)), List.of(member, Long.toString(leaseMillis)))
                .map(reply -> reply.toInteger() == 1);
    }

    /** @return whether the run still held its lease */
    Uni<Boolean> releaseLease(String key, String member) {
        return redis.eval(LEASE, List.of(runsKey(key)), List.of(member, "0")).map(reply -> reply.toInteger() == 1);
    }

    Uni<Void> pause(String key, boolean paused, long ttlMillis) {
        return redis.eval(PAUSE, List.of(key), List.of(paused ? "1" : "0", Long.toString(ttlMillis))).replaceWithVoid();
    }
}
