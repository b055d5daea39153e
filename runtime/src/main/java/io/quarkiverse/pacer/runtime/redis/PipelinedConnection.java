package io.quarkiverse.pacer.runtime.redis;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.RedisOverloadedException;
import io.quarkiverse.pacer.delay.RedisTimeoutException;
import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.vertx.core.impl.ContextInternal;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.types.ErrorType;

/**
 * One long-lived connection of the configured Quarkus Redis client, with many requests in flight at once (pipelining).
 * <p>
 * All state is confined to one Vert.x event-loop context, so there are no locks: callers on other threads hand their
 * request over with one task, callers on its thread (a connection on the caller's own event loop) make it inline. Requests
 * beyond {@code maxInFlight} wait in a bounded local queue; a request's time budget
 * is a bound on Redis's silence, not on the caller's wait: a request fails when Redis answered nothing on the connection
 * for a whole budget (or there is no connection), so callers queued behind others under load are not mistaken for a
 * slow Redis; a hard cap of {@link #HARD_CAP_BUDGETS} budgets bounds every wait regardless.
 * <p>
 * A dropped connection fails the requests written on it and is reopened at once; when reopening fails, requests fail
 * fast until the next attempt, which is spaced by an exponential backoff (capped at {@link #MAX_BACKOFF_MILLIS}).
 */
final class PipelinedConnection {

    private static final Logger LOG = Logger.getLogger(PipelinedConnection.class);

    static final long MIN_BACKOFF_MILLIS = 50;
    static final long MAX_BACKOFF_MILLIS = 2_000;
    /**
     * No answer at all for this many budgets (and at least {@link #MIN_STALL_NANOS}) while requests are in flight: the
     * connection is given up and a fresh one opened.
     */
    static final int STALL_BUDGETS = 3;
    static final long MIN_STALL_NANOS = 2_000_000_000L;
    /** However Redis progresses, a request fails after this many of its budgets. */
    static final int HARD_CAP_BUDGETS = 4;
    /** The longest time between two looks at the watched requests. */
    static final long MAX_SWEEP_NANOS = 100_000_000L;

    private enum State {
        /** No connection and no attempt under way: the next request opens one. */
        CLOSED,
        CONNECTING,
        CONNECTED,
        /** The last attempt failed: requests fail fast until {@link #retryAtNanos}. */
        DOWN,
        /** The application is stopping. */
        SHUT_DOWN
    }

    private final ContextInternal context;
    private final Supplier<Redis> client;
    /** Discards the client's sockets after a stall (they may include the dead one), so a reconnect is a new socket. */
    private final Runnable onStall;
    private final int maxInFlight;
    private final int maxQueued;

    private final ArrayDeque<PendingRequest> queued = new ArrayDeque<>();
    private final ArrayDeque<PendingRequest> written = new ArrayDeque<>();
    private final RequestBatches batches = new RequestBatches(this::resend);
    /**
     * The requests whose budgets are watched: one sweep timer per connection looks at those due, instead of a Vert.x
     * timer set and cancelled per request (a share of the connection thread's CPU at tens of thousands of requests
     * per second). Answered ones leave at the next sweep.
     */
    private final ArrayDeque<PendingRequest> timed = new ArrayDeque<>();
    private long sweepTimer = -1;
    private long sweepDueNanos;
    private State state = State.CLOSED;
    private String shutdownReason = "Pacer is shutting down";
    private RedisConnection connection;
    private Throwable lastFailure;
    private long retryAtNanos;
    private long backoffMillis = MIN_BACKOFF_MILLIS;
    /** When Redis last answered anything on this connection (or the connection opened). */
    private long progressNanos = System.nanoTime();

    PipelinedConnection(ContextInternal context, Supplier<Redis> client, Runnable onStall, int maxInFlight,
            int maxQueued) {
        this.context = context;
        this.client = client;
        this.onStall = onStall;
        this.maxInFlight = maxInFlight;
        this.maxQueued = maxQueued;
    }

    /** Hands a request over from any thread: inline on this connection's event-loop thread, else as one task. */
    void submit(PendingRequest request) {
        if (context.isRunningOnContext()) {
            accept(request);
        } else if (context.nettyEventLoop().inEventLoop()) {
            // Another context of the same thread (a caller on the event loop of a connection of its own): this context
            // is made current for the call, so the Vert.x callbacks and timers it registers stay on it.
            context.dispatch(request, this::accept);
        } else {
            // runOnContext makes this context current, so Vert.x callbacks and timers stay on its thread.
            context.runOnContext(ignored -> accept(request));
        }
    }

    /** Runs {@code task} on this connection's context (at once when already there). */
    void execute(Runnable task) {
        if (context.isRunningOnContext()) {
            task.run();
        } else {
            context.runOnContext(ignored -> task.run());
        }
    }

    /** Closes the connection for good; requests still waiting fail. */
    void shutdown() {
        shutdown("Pacer is shutting down");
    }

    /**
     * Closes the connection for good; requests still waiting, and any submitted later, fail with {@code reason}
     * (unwritten ones can then be sent elsewhere: a master that left a Redis Cluster's slot map, say).
     */
    void shutdown(String reason) {
        try {
            context.runOnContext(ignored -> shutDown(reason));
        } catch (RejectedExecutionException stopped) {
            // The event loop has stopped already (an application event loop at shutdown): nothing else runs there.
            shutDown(reason);
        }
    }

    private void shutDown(String reason) {
        state = State.SHUT_DOWN;
        shutdownReason = reason;
        failAll(queued, new RedisUnavailableException(reason));
        failAll(written, new RedisUnavailableException(reason));
        closeConnection();
    }

    // ---- everything below runs on the context

    private void accept(PendingRequest request) {
        switch (state) {
            case SHUT_DOWN:
                request.fail(new RedisUnavailableException(shutdownReason));
                return;
            case DOWN:
                if (System.nanoTime() - retryAtNanos < 0) {
                    request.fail(unreachable());
                    return;
                }
                state = State.CLOSED;
                break;
            default:
                break;
        }
        if (queued.size() + batches.waiting() >= maxQueued) {
            request.fail(new RedisOverloadedException("Pacer's Redis request queue is full (" + maxQueued
                    + " requests waiting for an answer from Redis); raise quarkus.pacer.redis.max-queued or add"
                    + " quarkus.pacer.redis.connections if Redis itself has capacity left"));
            return;
        }
        request.arm();
        timed.add(request);
        sweepWithin(sweepPeriodNanos(request.budgetNanos()));
        PendingRequest now = batches.admit(request);
        if (now == null) {
            // Waits in its group: it goes with the others in one call when one of the group's calls in flight is
            // answered, or as soon as enough of them wait (RequestBatches.admit).
            return;
        }
        queued.add(now);
        if (state == State.CLOSED) {
            open();
        } else if (state == State.CONNECTED) {
            drain();
        }
    }

    private void open() {
        state = State.CONNECTING;
        client.get().connect().onComplete(ar -> {
            if (state == State.SHUT_DOWN) {
                if (ar.succeeded()) {
                    ar.result().close();
                }
                return;
            }
            if (ar.failed()) {
                connectFailed(ar.cause());
                return;
            }
            RedisConnection opened = ar.result();
            connection = opened;
            state = State.CONNECTED;
            backoffMillis = MIN_BACKOFF_MILLIS;
            progressNanos = System.nanoTime();
            opened.exceptionHandler(failure -> dropped(opened, failure));
            opened.endHandler(ignored -> dropped(opened, new RedisUnavailableException("the connection was closed")));
            drain();
        });
    }

    private void connectFailed(Throwable cause) {
        lastFailure = cause;
        state = State.DOWN;
        retryAtNanos = System.nanoTime() + backoffMillis * 1_000_000;
        LOG.debugf("Pacer cannot connect to Redis, next attempt in %d ms: %s", backoffMillis, cause);
        backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
        failAll(queued, unreachable());
    }

    private void dropped(RedisConnection which, Throwable cause) {
        if (connection != which) {
            return;
        }
        LOG.debugf("Pacer's Redis connection dropped: %s", cause);
        closeConnection();
        lastFailure = cause;
        if (state != State.SHUT_DOWN) {
            // Before the callbacks: one that submits again at once (on this thread) finds no connection, and opens one.
            state = State.CLOSED;
        }
        failAll(written, new RedisUnavailableException("the connection to Redis was lost: " + cause.getMessage(), cause));
        if (state == State.CLOSED && !queued.isEmpty()) {
            open();
        }
    }

    private void closeConnection() {
        RedisConnection current = connection;
        connection = null;
        if (current != null) {
            current.exceptionHandler(null);
            current.endHandler(null);
            current.close();
        }
    }

    /** Writes queued requests while the pipeline has room. */
    private void drain() {
        RedisConnection current = connection;
        while (state == State.CONNECTED && written.size() < maxInFlight && !queued.isEmpty()) {
            PendingRequest request = queued.poll();
            if (request.isDone()) {
                released(request);
                continue;
            }
            if (current.pendingQueueFull()) {
                // The client's own limit (quarkus.redis.max-waiting-handlers) is lower than ours: wait for answers.
                queued.addFirst(request);
                return;
            }
            if (written.isEmpty()) {
                // Nothing was outstanding: the wait for Redis's next answer starts now.
                progressNanos = System.nanoTime();
            }
            written.add(request);
            request.written();
            current.send(request.request()).onComplete(ar -> answered(current, request, ar.succeeded() ? ar.result()
                    : null, ar.cause()));
        }
    }

    private void answered(RedisConnection on, PendingRequest request, Response response, Throwable failure) {
        if (on != connection) {
            // A late answer on a connection already dropped (its requests were failed then).
            request.fail(failure != null ? connectionLoss(failure)
                    : new RedisUnavailableException("the connection to Redis was lost"));
            return;
        }
        progressNanos = System.nanoTime();
        written.remove(request);
        if (failure == null) {
            // The group's next call is written before the callers' work (inline for callers on this event loop): Redis
            // runs it meanwhile. A failure keeps its group's place until handled (a NOSCRIPT batch is resent in it).
            released(request);
            drain();
            request.complete(response);
            return;
        }
        request.fail(connectionLoss(failure));
        released(request);
        drain();
    }

    /**
     * How often requests of budget {@code budgetNanos} are looked at: an eighth of the budget (a look comes at most
     * that late, well within the quarter budget after which {@link #timedOut} takes this JVM as starved), at most
     * {@link #MAX_SWEEP_NANOS}.
     */
    static long sweepPeriodNanos(long budgetNanos) {
        return Math.max(1_000_000, Math.min(MAX_SWEEP_NANOS, budgetNanos / 8));
    }

    /** Makes sure a sweep comes within {@code periodNanos}. */
    private void sweepWithin(long periodNanos) {
        long due = System.nanoTime() + periodNanos;
        if (sweepTimer >= 0) {
            if (sweepDueNanos - due <= 0) {
                return;
            }
            context.owner().cancelTimer(sweepTimer);
        }
        sweepDueNanos = due;
        sweepTimer = context.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(periodNanos)), ignored -> sweep());
    }

    /**
     * Drops the answered requests and looks at those due ({@link #timedOut}); comes again while requests are watched.
     * Failing a request may submit another (a retry) on this thread: only the requests watched at the start are
     * looked at.
     */
    private void sweep() {
        sweepTimer = -1;
        long now = System.nanoTime();
        long shortest = Long.MAX_VALUE;
        for (int n = timed.size(); n > 0; n--) {
            PendingRequest request = timed.poll();
            if (request.isDone()) {
                continue;
            }
            if (now - request.timerDueNanos() >= 0) {
                timedOut(request);
                if (request.isDone()) {
                    continue;
                }
            }
            timed.add(request);
            shortest = Math.min(shortest, request.budgetNanos());
        }
        if (shortest != Long.MAX_VALUE) {
            sweepWithin(sweepPeriodNanos(shortest));
        }
    }

    /**
     * A request is due for a look (its budget ended, or the later look {@link #timedOut} set): fail it only when Redis is at
     * fault. Redis is at fault when it answered nothing on this
     * connection for a whole budget while requests were outstanding, when there is no connection, or when the request
     * has waited {@link #HARD_CAP_BUDGETS} budgets in all; a request that only waits behind others while answers keep
     * coming is given more time, so client-side load is never reported as an outage.
     */
    private void timedOut(PendingRequest request) {
        if (request.isDone()) {
            return;
        }
        long now = System.nanoTime();
        long budget = request.budgetNanos();
        long waited = now - request.submittedNanos();
        RedisTimeoutException failure = null;
        // A look coming late (the sweep fired late) means this JVM did not get the CPU: answers may be waiting unread,
        // so Redis gets time.
        boolean starved = now - request.timerDueNanos() > budget / 4;
        if (waited >= HARD_CAP_BUDGETS * budget) {
            failure = new RedisTimeoutException("Redis answered too slowly: no answer after "
                    + TimeUnit.NANOSECONDS.toMillis(waited) + " ms");
        } else if (state != State.CONNECTED) {
            failure = new RedisTimeoutException("no connection to Redis within " + request.budgetMillis() + " ms");
        } else if (!starved && !written.isEmpty() && now - progressNanos >= budget) {
            failure = new RedisTimeoutException("Redis answered nothing for " + request.budgetMillis() + " ms ("
                    + written.size() + " requests in flight, " + queued.size() + " queued, this one waited "
                    + TimeUnit.NANOSECONDS.toMillis(waited) + " ms, looked at "
                    + TimeUnit.NANOSECONDS.toMillis(now - request.timerDueNanos()) + " ms late)");
        }
        if (failure == null) {
            long stallIn = written.isEmpty() ? budget : starved ? budget / 4 : progressNanos + budget - now;
            request.rearm(Math.max(1_000_000, Math.min(stallIn, HARD_CAP_BUDGETS * budget - waited)));
            return;
        }
        if (!request.isWritten()) {
            if (queued.remove(request)) {
                released(request);
            } else {
                batches.remove(request);
            }
        }
        request.fail(failure);
        long stall = Math.max(MIN_STALL_NANOS, STALL_BUDGETS * budget);
        if (now - progressNanos > stall && !written.isEmpty() && connection != null) {
            // Nothing came back for long (a half-open TCP connection, say). Closing would hand the socket back to the
            // client's pool, and the next connect could get the same dead socket: the client discards its sockets.
            RedisConnection stalled = connection;
            onStall.run();
            dropped(stalled, new RedisTimeoutException("no answer from Redis for "
                    + TimeUnit.NANOSECONDS.toMillis(now - progressNanos) + " ms"));
        }
    }

    /**
     * Vert.x fails the requests still pending on a connection that ends with the error reply {@code CONNECTION_CLOSED},
     * and a request sent on a connection that has just ended with "Connection is closed": both are the connection lost
     * (an outage), not an answer of Redis's.
     */
    private static Throwable connectionLoss(Throwable failure) {
        if (failure instanceof ErrorType && "CONNECTION_CLOSED".equals(failure.getMessage())) {
            return new RedisUnavailableException("the connection to Redis was lost under a written request", failure);
        }
        if (!(failure instanceof ErrorType) && "Connection is closed".equals(failure.getMessage())) {
            // Vert.x refuses to send on a connection that has just ended, before its end handler told us.
            return new RedisUnavailableException("the connection to Redis was closed before the request was sent",
                    failure);
        }
        return failure;
    }

    private RedisUnavailableException unreachable() {
        return new RedisUnavailableException("Redis is unreachable: " + lastFailure, lastFailure);
    }

    /**
     * Fails every request of {@code requests}. The calls their groups release go first in the queue: failed in turn
     * when the queue is failed (no connection), sent on the next connection when the written requests are failed.
     */
    private void failAll(ArrayDeque<PendingRequest> requests, Throwable failure) {
        PendingRequest request;
        while ((request = requests.poll()) != null) {
            request.fail(failure);
            released(request);
        }
    }

    /** A request of a group left the connection: the group's next call (a batch of what waited) is queued first. */
    private void released(PendingRequest request) {
        PendingRequest next = batches.released(request);
        if (next == null) {
            return;
        }
        if (state == State.SHUT_DOWN) {
            next.fail(new RedisUnavailableException(shutdownReason));
            released(next);
        } else {
            queued.addFirst(next);
        }
    }

    /** A batch sent again with the script's source after {@code NOSCRIPT} (it already holds its group's place). */
    private void resend(PendingRequest batch) {
        if (state == State.SHUT_DOWN) {
            batch.fail(new RedisUnavailableException(shutdownReason));
            released(batch);
        } else {
            queued.addFirst(batch);
        }
    }
}
