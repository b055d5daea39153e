package io.quarkiverse.pacer.runtime.scheduler;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.common.runtime.DefaultInvoker;
import io.smallrye.mutiny.Uni;

/**
 * Invokes the task of a programmatic job, with the request context active as Quarkus's schedulers do: a
 * {@code Consumer} on a worker thread (or a virtual thread, when asked), a {@code Function} returning a {@code Uni} on
 * the event loop.
 */
final class JobTaskInvoker extends DefaultInvoker {

    private final Consumer<ScheduledExecution> task;
    private final Function<ScheduledExecution, Uni<Void>> asyncTask;
    private final boolean virtualThread;

    private JobTaskInvoker(Consumer<ScheduledExecution> task, Function<ScheduledExecution, Uni<Void>> asyncTask,
            boolean virtualThread) {
        this.task = task;
        this.asyncTask = asyncTask;
        this.virtualThread = virtualThread;
    }

    static JobTaskInvoker of(Consumer<ScheduledExecution> task, boolean virtualThread) {
        return new JobTaskInvoker(task, null, virtualThread);
    }

    static JobTaskInvoker of(Function<ScheduledExecution, Uni<Void>> asyncTask) {
        return new JobTaskInvoker(null, asyncTask, false);
    }

    @Override
    protected CompletionStage<Void> invokeBean(ScheduledExecution execution) {
        try {
            if (task != null) {
                task.accept(execution);
                return CompletableFuture.completedStage(null);
            }
            return asyncTask.apply(execution).subscribeAsCompletionStage();
        } catch (RuntimeException e) {
            return CompletableFuture.failedStage(e);
        }
    }

    @Override
    public boolean isBlocking() {
        return task != null;
    }

    @Override
    public boolean isRunningOnVirtualThread() {
        return virtualThread;
    }
}
