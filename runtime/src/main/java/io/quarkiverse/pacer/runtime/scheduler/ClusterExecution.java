package io.quarkiverse.pacer.runtime.scheduler;

import java.time.Instant;

import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Trigger;

/**
 * One claimed tick: {@code fireTime} is the Redis time of the claim, {@code scheduledFireTime} the tick's own time.
 */
record ClusterExecution(Trigger getTrigger, Instant getFireTime, Instant getScheduledFireTime)
        implements
            ScheduledExecution {
}
