package io.quarkiverse.pacer.runtime.delay.inspection;

/**
 * How many messages of one queue are in each state, read in one script call per shard.
 *
 * @param queue the queue
 * @param scheduled waiting messages due later
 * @param overdue waiting messages already due and not yet claimed
 * @param inFlight messages claimed by a consumer and not yet acknowledged
 * @param dead dead letters
 * @param oldestOverdueMillis how long the oldest overdue message has been due, or {@code -1} when none is
 */
public record QueueDepth(String queue, long scheduled, long overdue, long inFlight, long dead,
        long oldestOverdueMillis) {

    /** Messages waiting for their due time or for a consumer. */
    public long waiting() {
        return scheduled + overdue;
    }

    /** Messages in any state, dead letters included. */
    public long total() {
        return scheduled + overdue + inFlight + dead;
    }
}
