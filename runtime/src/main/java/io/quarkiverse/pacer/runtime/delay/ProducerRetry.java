package io.quarkiverse.pacer.runtime.delay;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.redis.RedisTimeoutException;
import io.quarkiverse.pacer.runtime.redis.RedisUnavailableException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.redis.client.impl.types.ErrorType;

/**
 * Lets a producer call ride out a short Redis outage ({@code quarkus.pacer.delayed.producer-timeout}): a call failing
 * because Redis is unavailable is made again after a short backoff on a Vert.x timer, on the caller's Vert.x context
 * when it has one, until the bound; then its last failure is the call's. No thread waits meanwhile.
 * <p>
 * Every call retried must be idempotent: the callers fix everything (a generated id included) before the first
 * attempt, and every producer script is an upsert, a removal or a read. {@code scheduleIfAbsent} is the exception the
 * documentation states: when an attempt's answer is lost after Redis stored the message, the next attempt finds it and
 * answers {@code false}.
 */
final class ProducerRetry {

    private static final Logger LOG = Logger.getLogger(ProducerRetry.class);

    static final long FIRST_BACKOFF_MILLIS = 25;
    static final long MAX_BACKOFF_MILLIS = 500;

    /** Redis error replies that mean "not now" (a loading replica, a failover, a cluster missing a node). */
    private static final String[] TRANSIENT_ERRORS = { "READONLY", "LOADING", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN" };

    private final Vertx vertx;
    private final long timeoutNanos;

    ProducerRetry(Vertx vertx, Duration timeout) {
        this.vertx = vertx;
        this.timeoutNanos = timeout.toNanos();
    }

    /** {@code call}, made again while it fails because Redis is unavailable, for at most the producer timeout. */
    <T> Uni<T> call(Supplier<Uni<T>> call) {
        if (timeoutNanos <= 0) {
            return Uni.createFrom().deferred(() -> call.get());
        }
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean ended = new AtomicBoolean();
            emitter.onTermination(() -> ended.set(true));
            attempt(call, emitter, ended, Vertx.currentContext(), System.nanoTime() + timeoutNanos,
                    FIRST_BACKOFF_MILLIS);
        });
    }

    private <T> void attempt(Supplier<Uni<T>> call, UniEmitter<? super T> emitter, AtomicBoolean ended,
            Context context, long deadline, long backoffMillis) {
        if (ended.get()) {
            return; // cancelled
        }
        Uni<T> uni;
        try {
            uni = call.get();
        } catch (Throwable failure) {
            emitter.fail(failure);
            return;
        }
        uni.subscribe().with(emitter::complete, failure -> {
            long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (!isOutage(failure) || remainingMillis <= 0 || ended.get()) {
                emitter.fail(failure);
                return;
            }
            LOG.debugf("Redis unavailable for a delay-queue producer call, again in %d ms: %s", backoffMillis, failure);
            long next = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
            vertx.setTimer(Math.max(1, Math.min(backoffMillis, remainingMillis)), id -> {
                if (context != null) {
                    context.runOnContext(ignored -> attempt(call, emitter, ended, context, deadline, next));
                } else {
                    attempt(call, emitter, ended, null, deadline, next);
                }
            });
        });
    }

    /**
     * Whether {@code failure} means Redis is unavailable for now (unreachable, not answering, failing over), so the
     * same call may succeed a moment later; never a data error or a full local queue.
     */
    static boolean isOutage(Throwable failure) {
        if (failure instanceof RedisUnavailableException || failure instanceof RedisTimeoutException) {
            return true;
        }
        if (failure instanceof ErrorType && failure.getMessage() != null) {
            for (String prefix : TRANSIENT_ERRORS) {
                if (failure.getMessage().startsWith(prefix)) {
                    return true;
                }
            }
        }
        return false;
    }
}
