package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Runs a handler on a worker thread, in a request context of its own: a {@code void} method, or any method annotated
 * {@code @Blocking}.
 * <p>
 * Handlers waiting to start are taken by a few worker tasks ("runners"), each running one after another until none
 * waits, instead of one worker task per message: waking a parked worker costs more than a short handler. A burst gets
 * as many runners as it needs to start within {@link #START_WITHIN_NANOS} at the handlers' recent average duration,
 * up to one per waiting message; a message that still waits {@link #RESCUE_MILLIS} (a handler turned slow) gets a
 * runner of its own. The consumer's slots still bound how many handlers run at once.
 */
final class OffloadingHandlerInvoker implements HandlerInvoker {

    /** How soon a burst of waiting handlers should start, at their average duration: about a worker's wake-up. */
    static final long START_WITHIN_NANOS = 200_000;
    /** A handler waiting this long means the running ones are slower than their average: each waiting one gets a runner. */
    static final long RESCUE_MILLIS = 2;
    private static final long RESCUE_NANOS = TimeUnit.MILLISECONDS.toNanos(RESCUE_MILLIS);

    private final DelayedConsumerDefinition definition;
    private final Invoker<Object, Object> invoker;
    private final ConcurrentLinkedQueue<Job> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final AtomicInteger runners = new AtomicInteger();
    private final AtomicBoolean rescueArmed = new AtomicBoolean();
    /**
     * Moving average of a handler's duration. Updated by the runners without a lock: a lost update only skews a
     * heuristic. It starts high, so the first handlers each get a runner, as slow ones need.
     */
    private volatile long averageNanos = TimeUnit.MILLISECONDS.toNanos(1);

    OffloadingHandlerInvoker(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker) {
        this.definition = definition;
        this.invoker = invoker;
    }

    /** One handler call waiting for a runner. */
    private record Job(ContextInternal context, Object argument, BooleanSupplier stopping, Consumer<Throwable> outcome,
            long queuedNanos) {
    }

    @Override
    public void invoke(Context context, Object argument, BooleanSupplier stopping, Consumer<Throwable> outcome) {
        ContextInternal handlerContext = (ContextInternal) context;
        waiting.add(new Job(handlerContext, argument, stopping, outcome, System.nanoTime()));
        Executor executor = handlerContext.workerPool().executor();
        startRunners(executor, runnersFor(waitingCount.incrementAndGet()));
        armRescue(handlerContext, executor);
    }

    /** Runners that start {@code count} waiting handlers within {@link #START_WITHIN_NANOS}: at least one. */
    private int runnersFor(int count) {
        long needed = (count * averageNanos + START_WITHIN_NANOS - 1) / START_WITHIN_NANOS;
        return (int) Math.max(1, Math.min(count, needed));
    }

    /** Starts runners until there are {@code wanted}. */
    private void startRunners(Executor executor, int wanted) {
        for (int current = runners.get(); current < wanted; current = runners.get()) {
            if (runners.compareAndSet(current, current + 1)) {
                start(executor);
            }
        }
    }

    private void start(Executor executor) {
        try {
            executor.execute(() -> run(executor));
        } catch (RejectedExecutionException e) {
            // The worker pool is shutting down: the waiting handlers fail, as a rejected worker task would.
            runners.decrementAndGet();
            Job job;
            while ((job = waiting.poll()) != null) {
                waitingCount.decrementAndGet();
                job.outcome.accept(e);
            }
        }
    }

    /** A runner: runs waiting handlers until none is left. */
    private void run(Executor executor) {
        for (;;) {
            Job job = waiting.poll();
            if (job == null) {
                runners.decrementAndGet();
                // A handler queued after the poll, when no other runner is left to see it: this one takes it.
                if (waiting.isEmpty() || !rejoin()) {
                    return;
                }
                continue;
            }
            int left = waitingCount.decrementAndGet();
            if (left > 0) {
                startRunners(executor, runnersFor(left));
            }
            long started = System.nanoTime();
            try {
                job.context.dispatch(() -> handle(job));
            } catch (RuntimeException e) {
                // Reporting the outcome failed (the application is stopping): the runner goes on with the others.
                DelayedConsumerLoop.LOG.debugf(e, "Reporting the outcome of %s failed", definition.describe());
            }
            long took = System.nanoTime() - started;
            averageNanos += (took - averageNanos) / 8;
        }
    }

    /** Counts this runner again when no runner is left; another that is left polls again before it stops. */
    private boolean rejoin() {
        for (;;) {
            int current = runners.get();
            if (current > 0) {
                return false;
            }
            if (runners.compareAndSet(0, 1)) {
                return true;
            }
        }
    }

    /** Checks, while handlers wait, that the oldest has not waited {@link #RESCUE_MILLIS}. */
    private void armRescue(ContextInternal context, Executor executor) {
        if (rescueArmed.compareAndSet(false, true)) {
            context.owner().setTimer(RESCUE_MILLIS, id -> rescue(context, executor));
        }
    }

    private void rescue(ContextInternal context, Executor executor) {
        rescueArmed.set(false);
        Job oldest = waiting.peek();
        if (oldest == null) {
            return;
        }
        long waited = System.nanoTime() - oldest.queuedNanos;
        if (waited >= RESCUE_NANOS) {
            // The running handlers take longer than their average says: every waiting one gets a runner.
            averageNanos = Math.max(averageNanos, waited);
            for (int i = waitingCount.get(); i > 0; i--) {
                runners.incrementAndGet();
                start(executor);
            }
        }
        armRescue(context, executor);
    }

    /** One handler call on its message's duplicated context (current on this thread), in a request context. */
    private void handle(Job job) {
        if (job.stopping.getAsBoolean()) {
            job.outcome.accept(NOT_STARTED);
            return;
        }
        Object result;
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            result = invoker.invoke(null, new Object[] { job.argument });
        } catch (Throwable t) {
            job.outcome.accept(t);
            return;
        } finally {
            requestContext.terminate();
        }
        HandlerResults.complete(definition, result, job.outcome);
    }
}
