package io.quarkiverse.pacer.runtime.scheduler;

/**
 * Where one {@code PACER} job reports what happens to its ticks on this instance. The default does nothing; with
 * Micrometer present the build registers {@link MicrometerSchedulerMetrics}. Calls are cheap and never block.
 */
public interface JobMetrics {

    JobMetrics NONE = new JobMetrics() {
    };

    /** Why a tick did not run. */
    enum Skip {
        /** {@code concurrentExecution = SKIP}: a run of the job was in flight on some instance. */
        CONCURRENT_EXECUTION("concurrent-execution"),
        /** The job's {@code skipExecutionIf} predicate said so. */
        SKIP_EXECUTION_IF("skip-execution-if"),
        /** Missed by more than the job's {@code overdueGracePeriod}. */
        OVERDUE("overdue");

        /** The value of the meter's {@code reason} tag. */
        public final String tag;

        Skip(String tag) {
            this.tag = tag;
        }
    }

    /** A run of the job's method on this instance ended, reruns included. */
    default void ended(boolean failed) {
    }

    /** This instance took over a run whose lease expired and runs its tick again. */
    default void rerun() {
    }

    /** This instance skipped {@code ticks} ticks of the job (only the instance that moved the job on counts them). */
    default void skipped(Skip reason, long ticks) {
    }

    /** This instance claimed a tick {@code millis} after its scheduled fire time (Redis time). */
    default void lateness(long millis) {
    }
}
