package io.quarkiverse.pacer.runtime.scheduler;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.common.runtime.ScheduledInvoker;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.quarkus.virtual.threads.VirtualThreadsRecorder;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Runs one claimed tick as Quarkus's own scheduler would (a duplicated context; a virtual thread for a
 * {@code @RunOnVirtualThread} method, from Quarkus's virtual thread executor, which falls back to worker threads on a JVM
 * without virtual threads; a worker thread for another blocking method; the event loop for a {@code Uni} or
 * {@code CompletionStage} one) and tells when the run is over, which Quarkus's
 * offloading invoker does not: the lease of {@code concurrentExecution = SKIP} is held until then. The returned future
 * fails with the run's failure.
 */
final class JobRun {

    private JobRun() {
    }

    static CompletableFuture<Void> start(ScheduledInvoker invoker, ScheduledExecution execution, Vertx vertx) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Context context = VertxContext.getOrCreateDuplicatedContext(vertx);
        VertxContextSafetyToggle.setContextSafe(context, true);
        if (invoker.isBlocking() && invoker.isRunningOnVirtualThread()) {
            context.runOnContext(
                    ignored -> VirtualThreadsRecorder.getCurrent().execute(() -> invoke(invoker, execution, done)));
        } else if (invoker.isBlocking()) {
            context.executeBlocking(() -> {
                invoke(invoker, execution, done);
                return null;
            }, false);
        } else {
            context.runOnContext(ignored -> invoke(invoker, execution, done));
        }
        return done;
    }

    private static void invoke(ScheduledInvoker invoker, ScheduledExecution execution, CompletableFuture<Void> done) {
        try {
            CompletionStage<Void> stage = invoker.invoke(execution);
            if (stage == null) {
                done.complete(null);
            } else {
                stage.whenComplete((ignored, failure) -> {
                    if (failure == null) {
                        done.complete(null);
                    } else {
                        done.completeExceptionally(failure);
                    }
                });
            }
        } catch (Throwable failure) {
            // For a tick, the StatusEmitterInvoker has logged it and fired FailedExecution.
            done.completeExceptionally(failure);
        }
    }
}
