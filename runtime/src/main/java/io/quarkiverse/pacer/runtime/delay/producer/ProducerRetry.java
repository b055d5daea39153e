package io.quarkiverse.pacer.runtime.delay.producer;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkiverse.pacer.delay.DurabilityUnconfirmedException;
import io.quarkiverse.pacer.delay.RedisTimeoutException;
import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.quarkiverse.pacer.runtime.delay.RetryDelay;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.redis.client.impl.types.ErrorType;

/**
 * Lets a producer call ride out a short Redis outage ({@code quarkus.pacer.delayed.producer-timeout}): a call failing
 * because Redis is unavailable is made again after a short backoff on a Vert.x timer, on the caller's Vert.x context
 * when it has one, until the bound; then its last failure is the call's. No thread waits meanwhile. The backoff is the
 * consumers' ({@link RetryDelay}: 20 ms doubling up to a second, with jitter).
 * <p>
 * Every call retried must be idempotent: the callers fix everything (a generated id included) before the first
 * attempt, and every producer script is an upsert, a removal or a read. {@code scheduleIfAbsent} is the exception the
 * documentation states: when an attempt's answer is lost after Redis stored the message, the next attempt finds it and
 * answers {@code false}.
 * <p>
 * For the same reason, a later attempt refused because its master has no replica
 * ({@link DurabilityUnavailableException}: that attempt stored nothing) does not mean the call stored nothing: it fails
 * with {@link DurabilityUnconfirmedException}, as an earlier attempt may have been stored before its connection was lost.
 */
public final class ProducerRetry {

    private static final Logger LOG = Logger.getLogger(ProducerRetry.class);

    /** Redis error replies that mean "not now" (a loading replica, a failover, a cluster missing a node). */
    private static final String[] TRANSIENT_ERRORS = { "READONLY", "LOADING", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN" };

    private final Vertx vertx;
    private final long timeoutNanos;

    ProducerRetry(Vertx vertx, Duration timeout) {
        this.vertx = vertx;
        this.timeoutNanos = timeout.toNanos();
    }

    /** Whether a call failing because Redis is unavailable is made again ({@code producer-timeout} above 0). */
    boolean retries() {
        return timeoutNanos > 0;
    }

    /** {@code call}, made again while it fails because Redis is unavailable, for at most the producer timeout. */
    public <T> Uni<T> call(Supplier<Uni<T>> call) {
        if (timeoutNanos <= 0) {
            return Uni.createFrom().deferred(() -> call.get());
        }
        return retried(call, 0);
    }

    /**
     * {@link #call(Supplier)} for a call whose first attempt, made elsewhere, failed because Redis was unavailable (and
     * may have been stored).
     */
    <T> Uni<T> callAgain(Supplier<Uni<T>> call) {
        return retried(call, 1);
    }

    private <T> Uni<T> retried(Supplier<Uni<T>> call, int failures) {
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean ended = new AtomicBoolean();
            emitter.onTermination(() -> ended.set(true));
            attempt(call, emitter, ended, Vertx.currentContext(), System.nanoTime() + timeoutNanos, failures);
        });
    }

    private <T> void attempt(Supplier<Uni<T>> call, UniEmitter<? super T> emitter, AtomicBoolean ended,
            Context context, long deadline, int failures) {
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
                emitter.fail(failures > 0 ? afterLostAttempt(failure) : failure);
                return;
            }
            long delay = RetryDelay.afterFailures(failures + 1, ThreadLocalRandom.current().nextDouble());
            LOG.debugf("Redis unavailable for a delay-queue producer call, again in %d ms: %s", delay, failure);
            vertx.setTimer(Math.max(1, Math.min(delay, remainingMillis)), id -> {
                if (context != null) {
                    context.runOnContext(ignored -> attempt(call, emitter, ended, context, deadline, failures + 1));
                } else {
                    attempt(call, emitter, ended, null, deadline, failures + 1);
                }
            });
        });
    }

    /**
     * The failure of a call made again after an attempt lost with its connection: a refusal for want of a replica
     * means the earlier attempt's write is unconfirmed, not that nothing was stored.
     */
    static Throwable afterLostAttempt(Throwable failure) {
        if (failure instanceof DurabilityUnavailableException refused) {
            return new DurabilityUnconfirmedException(refused.queue(), "quarkus.pacer.delayed.durability=replicas: the"
                    + " message may have been stored by the primary but not confirmed by a replica: an earlier attempt"
                    + " of this schedule was lost with its connection to Redis after it may have been written, and the"
                    + " master of shard " + refused.shard() + " of the queue, " + refused.node() + ", now has no"
                    + " connected replica to confirm it. It may be delivered, or lost by a failover. Add a replica to"
                    + " that master, or set quarkus.pacer.delayed.durability=primary; scheduling it again with the"
                    + " same id is safe", refused);
        }
        return failure;
    }

    /**
     * Whether {@code failure} means Redis is unavailable for now (unreachable, not answering, the connection lost,
     * failing over), so the same call may succeed a moment later; never a data error or a full local queue.
     */
    static boolean isOutage(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof RedisUnavailableException || cause instanceof RedisTimeoutException
                    || cause instanceof IOException) {
                // IOException: the connection reset or closed under a request already written.
                return true;
            }
            if (cause instanceof ErrorType && cause.getMessage() != null) {
                for (String prefix : TRANSIENT_ERRORS) {
                    if (cause.getMessage().startsWith(prefix)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
