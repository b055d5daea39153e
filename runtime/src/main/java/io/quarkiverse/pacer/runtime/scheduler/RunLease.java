package io.quarkiverse.pacer.runtime.scheduler;

/**
 * A run of a job in flight, as the job's runs in Redis hold it: its member {@code <tick>:<start>:<token>} and the
 * deadline of its lease (Redis time). While the lease is live the run's instance is running the tick; once it has
 * expired, the instance died or lost Redis, and another instance runs the tick again (scheduler-rerun.lua).
 *
 * @param member the run's member in the job's runs
 * @param deadline when the lease ends unless renewed, epoch millis (Redis time)
 */
record RunLease(String member, long deadline) {

    /** How many times one tick is started at most: once, and again each time its instance died running it. */
    static final int MAX_STARTS = 3;

    /** The member of a run of {@code tick}, its {@code start}-th start (from 1), by the holder of {@code token}. */
    static String member(long tick, int start, String token) {
        return tick + ":" + start + ":" + token;
    }

    /** The scheduled fire time of the run's tick. */
    long tick() {
        return Long.parseLong(member.substring(0, member.indexOf(':')));
    }

    /** Which start of its tick the run is, from 1. */
    int start() {
        int from = member.indexOf(':') + 1;
        return Integer.parseInt(member.substring(from, member.indexOf(':', from)));
    }

    boolean expiredAt(long now) {
        return deadline <= now;
    }
}
