package io.quarkiverse.pacer.runtime.scheduler;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import io.quarkus.scheduler.Scheduled.SkipPredicate;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Trigger;
import io.quarkus.scheduler.common.runtime.AbstractJobDefinition;
import io.quarkus.scheduler.common.runtime.SyntheticScheduled;
import io.smallrye.mutiny.Uni;

/** {@code Scheduler.newJob(identity)} of the {@code PACER} scheduler: collects the job, then hands it over. */
final class PacerJobDefinition extends AbstractJobDefinition<PacerJobDefinition> {

    /** Everything {@code schedule()} was given; the task and skip predicate as instances, and as classes when given so. */
    record ProgrammaticJob(SyntheticScheduled scheduled, Consumer<ScheduledExecution> task,
            Function<ScheduledExecution, Uni<Void>> asyncTask, Class<?> taskClass, Class<?> asyncTaskClass,
            SkipPredicate skipPredicate, Class<?> skipPredicateClass, boolean runOnVirtualThread) {

        String identity() {
            return scheduled.identity();
        }

        /** The task is a class: the job is stored in Redis. */
        boolean storable() {
            return taskClass != null || asyncTaskClass != null;
        }
    }

    private final PacerScheduler scheduler;

    PacerJobDefinition(String identity, PacerScheduler scheduler) {
        super(identity);
        this.scheduler = scheduler;
    }

    @Override
    public Trigger schedule() {
        checkScheduled();
        if (task == null && asyncTask == null) {
            throw new IllegalStateException("Either sync or async task must be set");
        }
        scheduled = true;
        // The skip predicate travels apart: Quarkus's JSON form of a schedule cannot hold an instance. The job runs
        // with PACER whether it chose it or PACER is the default: stored, it says so.
        SyntheticScheduled schedule = new SyntheticScheduled(identity, cron, every, 0, TimeUnit.MINUTES, delayed,
                overdueGracePeriod, concurrentExecution, null, timeZone, PacerScheduler.IMPLEMENTATION, executionMaxDelay);
        return scheduler.schedule(new ProgrammaticJob(schedule, task, asyncTask, taskClass, asyncTaskClass,
                skipPredicate, skipPredicateClass, runOnVirtualThread));
    }
}
