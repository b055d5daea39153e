package io.quarkiverse.pacer.runtime.redis;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * One request on its way through a {@link PipelinedConnection}: its time budget, when it is due for a look, and the
 * caller to answer.
 * Mutated only on the connection's context, except {@link #cancel()}, which only sets a flag.
 */
final class PendingRequest {

    private final Request request;
    private final long budgetNanos;
    private final Consumer<Response> onResponse;
    private final Consumer<Throwable> onFailure;
    /** The caller's event-loop context, answered on its own thread; {@code null} for callers that may block. */
    private final Context callerContext;
    /** May go on a connection of the caller's own event loop ({@link CallerLoopConnections}). */
    private boolean onCallerLoop;
    private final long submittedNanos = System.nanoTime();
    private volatile boolean done;
    private boolean written;
    /** When its connection's sweep looks at it next: one timer per connection, not one per request. */
    private long timerDueNanos;
    /** The connection took it ({@link #arm()}): an answer may then come on the caller's own thread. */
    private boolean armed;
    /** May travel with others of its group in one call, or {@code null}. */
    private Batchable batchable;
    /** The group whose place in flight this request holds ({@link RequestBatches}), or {@code null}. */
    private Object group;
    /** For a batch: the requests it answers, written when it is. */
    private List<PendingRequest> parts;

    /**
     * @param onResponse called with Redis's answer
     * @param onFailure called with the failure instead; exactly one of the two is called, once
     * @param callerContext the event-loop context to answer on, or {@code null} to answer on the connection's thread
     */
    PendingRequest(Request request, long budgetNanos, Consumer<Response> onResponse, Consumer<Throwable> onFailure,
            Context callerContext) {
        this.request = request;
        this.budgetNanos = budgetNanos;
        this.onResponse = onResponse;
        this.onFailure = onFailure;
        this.callerContext = callerContext;
    }

    Request request() {
        return request;
    }

    Batchable batchable() {
        return batchable;
    }

    /** Lets this request travel with others of its group ({@link RequestBatches}). */
    PendingRequest batchable(Batchable batchable) {
        this.batchable = batchable;
        return this;
    }

    /** Lets this request go on a connection of the caller's event loop, when the caller is on one of the application's. */
    PendingRequest onCallerLoop(boolean onCallerLoop) {
        this.onCallerLoop = onCallerLoop;
        return this;
    }

    /** The caller's context when this request may go on a connection of the caller's event loop, else {@code null}. */
    Context callerLoop() {
        return onCallerLoop ? callerContext : null;
    }

    Object group() {
        return group;
    }

    void group(Object group) {
        this.group = group;
    }

    void parts(List<PendingRequest> parts) {
        this.parts = parts;
    }

    long budgetNanos() {
        return budgetNanos;
    }

    long budgetMillis() {
        return TimeUnit.NANOSECONDS.toMillis(budgetNanos);
    }

    boolean isDone() {
        return done;
    }

    boolean isWritten() {
        return written;
    }

    /** When it was due for its current look. */
    long timerDueNanos() {
        return timerDueNanos;
    }

    long submittedNanos() {
        return submittedNanos;
    }

    void written() {
        written = true;
        if (parts != null) {
            for (PendingRequest part : parts) {
                part.written();
            }
        }
    }

    /** The subscriber went away: nothing is answered, and a request still queued is skipped. */
    void cancel() {
        done = true;
    }

    /** Its budget starts (the connection took it): due for a look when it ends. */
    void arm() {
        armed = true;
        rearm(budgetNanos);
    }

    /** Due for another look in {@code delayNanos}, rounded up to whole milliseconds (as a Vert.x timer would be). */
    void rearm(long delayNanos) {
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(delayNanos + 999_999));
        timerDueNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    void complete(Response response) {
        if (finish()) {
            answer(onResponse, response);
        }
    }

    void fail(Throwable failure) {
        if (finish()) {
            answer(onFailure, failure);
        }
    }

    /**
     * Calls back on the caller's context: inline when this thread is the caller's event loop (a connection on the
     * caller's own loop, {@link CallerLoopConnections}), else as a task on it. A request refused when submitted
     * ({@link #arm} not called yet) is always answered as a task, so a caller that retries at once on a failure
     * never recurses.
     */
    private <T> void answer(Consumer<T> callback, T value) {
        if (callerContext == null) {
            callback.accept(value);
            return;
        }
        ContextInternal caller = (ContextInternal) callerContext;
        if (armed && caller.nettyEventLoop().inEventLoop()) {
            // The caller's context made current for the callback (a duplicated context shares the loop's thread).
            caller.dispatch(value, callback::accept);
        } else {
            callerContext.runOnContext(ignored -> callback.accept(value));
        }
    }

    private boolean finish() {
        if (done) {
            return false;
        }
        done = true;
        return true;
    }
}
