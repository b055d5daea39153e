package io.quarkiverse.pacer.runtime.scheduler;

import java.time.Instant;

/**
 * One {@code PACER} job of this instance as the Dev UI shows it ({@link PacerScheduler#snapshots()}): its schedule, its
 * state read from Redis at {@code redisNow}, and what this instance knows of its runs.
 *
 * @param id the job's identity
 * @param methodDescription the {@code @Scheduled} method ({@code Class#method}), {@code null} for a programmatic job
 * @param storedInRedis a programmatic job whose task is a class: stored in Redis, run by every instance
 * @param everyMillis the period of an {@code every} schedule, {@code null} for a cron one
 * @param cron the cron expression of a cron schedule, {@code null} for an {@code every} one
 * @param zone the time zone of a cron schedule, {@code null} for an {@code every} one
 * @param redisNow the Redis time of the read
 * @param nextFireTime the next tick as stored in Redis, {@code null} before the job's first read initialized it
 * @param lastClaimedTick the scheduled fire time of the last tick an instance claimed, {@code null} if none yet
 * @param paused paused on every instance (read from Redis)
 * @param runningSince the scheduled fire time of a run in flight on any instance, {@code null} if none
 * @param runsHere runs of scheduled ticks started on this instance since it started
 * @param lastOutcome how the last run or skipped tick on this instance ended, {@code null} if none yet
 */
public record JobSnapshot(String id, String methodDescription, boolean storedInRedis, Long everyMillis, String cron,
        String zone, Instant redisNow, Instant nextFireTime, Instant lastClaimedTick, boolean paused,
        Instant runningSince, long runsHere, Outcome lastOutcome) {

    /** What a run of a job on this instance came to. */
    public enum Result {
        SUCCESS,
        FAILURE,
        SKIPPED
    }

    /**
     * @param result how it ended
     * @param at when it ended (this instance's clock)
     * @param scheduledFireTime the tick's scheduled fire time; for a run started by hand, when it was started
     * @param byHand started by {@link PacerScheduler#runNow(String)} rather than by a tick
     * @param message the failure, or why the tick was skipped; {@code null} on success
     */
    public record Outcome(Result result, Instant at, Instant scheduledFireTime, boolean byHand, String message) {
    }
}
