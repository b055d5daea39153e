package io.quarkiverse.pacer.runtime.scheduler;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.common.runtime.ScheduledInvoker;

/**
 * Counts the outcome of each run of a job's method. It sits inside the {@code skipExecutionIf} check, so a skipped
 * tick is not counted as a run.
 */
final class RunMetricsInvoker implements ScheduledInvoker {

    private final ScheduledInvoker delegate;
    private final JobMetrics metrics;

    RunMetricsInvoker(ScheduledInvoker delegate, JobMetrics metrics) {
        this.delegate = delegate;
        this.metrics = metrics;
    }

    @Override
    public CompletionStage<Void> invoke(ScheduledExecution execution) throws Exception {
        CompletionStage<Void> stage;
        try {
            stage = delegate.invoke(execution);
        } catch (Exception | Error failure) {
            metrics.ended(true);
            throw failure;
        }
        if (stage == null) {
            metrics.ended(false);
            return CompletableFuture.completedFuture(null);
        }
        return stage.whenComplete((ignored, failure) -> metrics.ended(failure != null));
    }

    @Override
    public boolean isBlocking() {
        return delegate.isBlocking();
    }

    @Override
    public boolean isRunningOnVirtualThread() {
        return delegate.isRunningOnVirtualThread();
    }
}
