package io.quarkiverse.pacer.runtime.delay.recurring;

/**
 * Where the firing of recurring schedules reports what happens to their ticks on this instance, per delay queue (never
 * per schedule: schedules are data, there may be one per customer). The default does nothing; with Micrometer present
 * the build registers {@link MicrometerRecurringMetrics}. Calls are cheap and never block.
 */
public interface RecurringMetrics {

    RecurringMetrics NONE = new RecurringMetrics() {
    };

    /** Why a tick's message was not stored in its delay queue. */
    enum Skip {
        /** Missed by more than the schedule's overdue grace period: never fired. */
        OVERDUE("overdue"),
        /** Fired, but its message could not be stored in three starts (its instance stopped each time). */
        DROPPED("dropped");

        /** The value of the meter's {@code reason} tag. */
        public final String tag;

        Skip(String tag) {
            this.tag = tag;
        }
    }

    /**
     * This instance fired a tick of a schedule that delivers to {@code queue} (it moved the schedule on in Redis),
     * {@code latenessMillis} after the tick's fire time (Redis time).
     */
    default void fired(String queue, long latenessMillis) {
    }

    /** This instance took over a fired tick whose lease expired before its message was stored, to store it. */
    default void takenOver(String queue) {
    }

    /** {@code ticks} ticks of a schedule that delivers to {@code queue} were not stored, counted by this instance. */
    default void skipped(String queue, Skip reason, long ticks) {
    }
}
