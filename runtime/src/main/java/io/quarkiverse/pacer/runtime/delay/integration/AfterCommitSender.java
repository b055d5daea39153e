package io.quarkiverse.pacer.runtime.delay.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.delay.DelayedMetrics;
import io.quarkiverse.pacer.runtime.redis.RedisFailures;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;

/**
 * Sends the producer operations of committed transactions to Redis ({@link JtaDelayedTransactions}): the operations
 * of one transaction one after the other in call order, each retried with backoff while it fails, for up to
 * {@code quarkus.pacer.delayed.after-commit.retry-for} from the commit, so a Redis restart or failover delays them
 * instead of losing them. The committing thread never waits; the backoff runs on Mutiny's scheduler.
 * <p>
 * Counts the operations not yet stored ({@link #pending()}: a metric, a health detail, the Dev UI). At shutdown it
 * waits for them up to {@code quarkus.pacer.delayed.shutdown-timeout} and logs each one it drops.
 */
@Singleton
public class AfterCommitSender {

    private static final Logger LOG = Logger.getLogger(AfterCommitSender.class);

    static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    /** Short enough that the operations follow soon after Redis is back. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

    /** One operation; identity equality (two equal descriptions are two operations). */
    static final class Operation {
        final String description;
        final Supplier<? extends Uni<?>> call;

        Operation(String description, Supplier<? extends Uni<?>> call) {
            this.description = description;
            this.call = call;
        }
    }

    private final Duration retryFor;
    private final Duration shutdownTimeout;
    private final Set<Operation> pending = ConcurrentHashMap.newKeySet();
    private final Object drained = new Object();
    private volatile boolean stopped;

    AfterCommitSender(PacerConfig config, Instance<DelayedMetrics> metrics) {
        this.retryFor = config.delayed().afterCommit().retryFor();
        this.shutdownTimeout = config.delayed().shutdownTimeout();
        if (metrics.isResolvable()) {
            metrics.get().afterCommitPending(this::pending);
        }
    }

    /** Operations of committed transactions not yet stored in Redis (nor given up). */
    public int pending() {
        return pending.size();
    }

    /** Sends the operations of one committed transaction in order; returns at once. */
    void send(List<Operation> operations) {
        if (stopped) {
            operations.forEach(operation -> LOG.errorf("%s after the transaction committed is dropped: the application"
                    + " is shutting down", operation.description));
            return;
        }
        pending.addAll(operations);
        long deadline = System.currentTimeMillis() + retryFor.toMillis();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Operation operation : operations) {
            chain = chain.chain(() -> send(operation, deadline));
        }
        chain.subscribe().with(ignored -> {
        }, failure -> LOG.errorf("Sending delayed-queue operations after commit failed: %s", failure.toString()));
    }

    private Uni<Void> send(Operation operation, long deadline) {
        if (!pending.contains(operation)) {
            return Uni.createFrom().voidItem(); // dropped at shutdown
        }
        Uni<?> attempts = Uni.createFrom().deferred(() -> (Uni<?>) operation.call.get());
        if (retryFor.toMillis() > 0) {
            attempts = attempts.onFailure(failure -> !stopped && isTransient(failure)).retry()
                    .withBackOff(FIRST_BACKOFF, MAX_BACKOFF).expireAt(deadline);
        }
        return attempts.onItemOrFailure().invoke((ignored, failure) -> done(operation, failure))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Whether the same operation may succeed later: anything but bad input or data Redis rejects. */
    private static boolean isTransient(Throwable failure) {
        return !(failure instanceof IllegalArgumentException) && !RedisFailures.isDataError(failure);
    }

    private void done(Operation operation, Throwable failure) {
        if (!pending.remove(operation)) {
            return; // already reported as dropped at shutdown
        }
        if (failure != null) {
            LOG.errorf("%s after the transaction committed failed; it is lost (retried for up to %s,"
                    + " quarkus.pacer.delayed.after-commit.retry-for): %s", operation.description, retryFor,
                    failure.toString());
        }
        if (pending.isEmpty()) {
            synchronized (drained) {
                drained.notifyAll();
            }
        }
    }

    /** Waits for the pending operations up to the shutdown timeout, then drops and reports the rest. */
    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        long deadline = System.nanoTime() + shutdownTimeout.toNanos();
        synchronized (drained) {
            long remaining;
            while (!pending.isEmpty() && (remaining = deadline - System.nanoTime()) > 0) {
                drained.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)));
            }
        }
        // Whoever removes an operation reports it: here as dropped, or its retry loop as stored or lost.
        for (Operation operation : new ArrayList<>(pending)) {
            if (pending.remove(operation)) {
                LOG.errorf("%s after the transaction committed is dropped at shutdown: Redis did not take it within %s"
                        + " (quarkus.pacer.delayed.shutdown-timeout)", operation.description, shutdownTimeout);
            }
        }
        stopped = true;
    }
}
