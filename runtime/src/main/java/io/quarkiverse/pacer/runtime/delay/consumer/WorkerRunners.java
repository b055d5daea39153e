package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.vertx.core.impl.ContextInternal;

/**
 * Runs the blocking handler calls of one queue on worker threads: waiting calls are taken by a few worker tasks
 * ("runners"), each running one after another until none waits, instead of one worker task per call, because waking
 * a parked worker costs more than a short handler. A burst gets as many runners as it needs to start within
 * {@link #START_WITHIN_NANOS} at the calls' recent average duration, up to one per waiting call; a call that still
 * waits {@link #RESCUE_MILLIS} (a handler turned slow) gets a runner of its own. The consumer's slots bound how many
 * calls are submitted at once, hence how many run.
 */
final class WorkerRunners {

    /** How soon a burst of waiting calls should start, at their average duration: about a worker's wake-up. */
    static final long START_WITHIN_NANOS = 200_000;
    /**
     * A call waiting this long means the running ones are slower than their average: each waiting call gets a
     * runner.
     */
    static final long RESCUE_MILLIS = 2;
    private static final long RESCUE_NANOS = TimeUnit.MILLISECONDS.toNanos(RESCUE_MILLIS);

    private final String describe;
    private final ConcurrentLinkedQueue<Call> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final AtomicInteger runners = new AtomicInteger();
    private final AtomicBoolean rescueArmed = new AtomicBoolean();
    /**
     * Moving average of a call's duration. Updated by the runners without a lock: a lost update only skews a heuristic.
     * It starts high, so the first calls each get a runner, as slow ones need.
     */
    private volatile long averageNanos = TimeUnit.MILLISECONDS.toNanos(1);

    /** @param describe what runs, for the log */
    WorkerRunners(String describe) {
        this.describe = describe;
    }

    /** One call waiting for a runner: {@code rejected} hears of a worker pool that refused it. */
    private record Call(ContextInternal context, Runnable task, Consumer<Throwable> rejected, long queuedNanos) {
    }

    /**
     * Runs {@code task} on a worker thread, with {@code context} current (as {@code executeBlocking} would). Called on
     * the consumer's event loop.
     *
     * @param rejected called instead when the worker pool refuses work (the application is stopping)
     */
    void submit(ContextInternal context, Runnable task, Consumer<Throwable> rejected) {
        waiting.add(new Call(context, task, rejected, System.nanoTime()));
        Executor executor = context.workerPool().executor();
        startRunners(executor, runnersFor(waitingCount.incrementAndGet()));
        armRescue(context, executor);
    }

    /** Runners that start {@code count} waiting calls within {@link #START_WITHIN_NANOS}: at least one. */
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
            // The worker pool is shutting down: the waiting calls fail, as a rejected worker task would.
            runners.decrementAndGet();
            Call call;
            while ((call = waiting.poll()) != null) {
                waitingCount.decrementAndGet();
                call.rejected.accept(e);
            }
        }
    }

    /** A runner: runs waiting calls until none is left. */
    private void run(Executor executor) {
        for (;;) {
            Call call = waiting.poll();
            if (call == null) {
                runners.decrementAndGet();
                // A call queued after the poll, when no other runner is left to see it: this one takes it.
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
                call.context.dispatch(call.task);
            } catch (RuntimeException e) {
                // Reporting the outcome failed (the application is stopping): the runner goes on with the others.
                DelayedConsumerLoop.LOG.debugf(e, "Reporting the outcome of %s failed", describe);
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

    /** Checks, while calls wait, that the oldest has not waited {@link #RESCUE_MILLIS}. */
    private void armRescue(ContextInternal context, Executor executor) {
        if (rescueArmed.compareAndSet(false, true)) {
            context.owner().setTimer(RESCUE_MILLIS, id -> rescue(context, executor));
        }
    }

    private void rescue(ContextInternal context, Executor executor) {
        rescueArmed.set(false);
        Call oldest = waiting.peek();
        if (oldest == null) {
            return;
        }
        long waited = System.nanoTime() - oldest.queuedNanos;
        if (waited >= RESCUE_NANOS) {
            // The running calls take longer than their average says: every waiting one gets a runner.
            averageNanos = Math.max(averageNanos, waited);
            for (int i = waitingCount.get(); i > 0; i--) {
                runners.incrementAndGet();
                start(executor);
            }
        }
        armRescue(context, executor);
    }
}
