package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.RetryDelay;
import io.quarkiverse.pacer.runtime.tracing.DeliveryOutcome;
import io.quarkiverse.pacer.runtime.tracing.DeliveryTrace;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.redis.client.Response;

/**
 * Consumes one shard of a delay queue in this instance: claims due messages in batches and hands each to the queue's
 * handler, at most {@code concurrency} at once over all shards. Its collaborators acknowledge
 * ({@link AckBatcher}), give back ({@link MessageNacks}) and renew the leases of ({@link LeaseRenewer}) the messages
 * it holds.
 * <p>
 * All mutable state is confined to one Vert.x event-loop context; Redis replies and handler completions hop back to
 * it. The loop claims when it has room and something may be due: after a full claim, at the earliest due time the
 * last claim reported ({@link ClaimTimer}), on a producer's wake-up and on the scheduler's safety poll.
 */
final class DelayedConsumerLoop {

    /** The logger of every part of the loop, so one category shows its log lines. */
    static final Logger LOG = Logger.getLogger(DelayedConsumerLoop.class);

    /** Most expired leases one claim call reclaims. */
    static final int RECLAIM_LIMIT = 100;
    private static final String RECLAIM_ARGUMENT = Integer.toString(RECLAIM_LIMIT);
    private static final int MAX_REASON_LENGTH = 1000;

    private final QueueConsumer consumer;
    private final DelayedKeys keys;
    private final int batchSize;
    private final int prefetchLimit;
    private final String noncePrefix;
    private final String leaseArgument;
    private final ConsumerCounters counters = new ConsumerCounters();
    private final ClaimTimer timer;
    private final AckBatcher acks;
    private final MessageNacks returns;
    private final LeaseRenewer renewer;

    // Confined to the context.
    private final ArrayDeque<ClaimedMessage> waiting = new ArrayDeque<>();
    /** Every message this loop holds, waiting or running, by claim token. */
    private final Map<String, ClaimedMessage> held = new LinkedHashMap<>();
    private long nonceSequence;
    private int running;
    private boolean claiming;
    private boolean claimAgain;
    private int claimFailures;
    private long clockOffsetMillis;
    private CompletableFuture<Void> stopped;
    private volatile boolean stopping;

    DelayedConsumerLoop(QueueConsumer consumer, DelayedKeys keys, String instanceId) {
        this.consumer = consumer;
        this.keys = keys;
        this.batchSize = consumer.settings.batchSize();
        this.prefetchLimit = consumer.settings.prefetchLimit();
        this.noncePrefix = instanceId + ":" + keys.shard + ":";
        this.leaseArgument = Long.toString(consumer.settings.leaseMillis());
        this.timer = new ClaimTimer(consumer, this::claim);
        this.acks = new AckBatcher(consumer, keys, this::checkStopped);
        this.returns = new MessageNacks(consumer, keys, counters, this::armAt, this::checkStopped);
        this.renewer = new LeaseRenewer(consumer, keys, held::values, this::checkStopped);
    }

    DelayedConsumerStats stats() {
        return counters.snapshot(keys.queue);
    }

    void start() {
        consumer.onContext(() -> {
            renewer.start();
            claim();
        });
    }

    /** Claims now if there is room (the safety poll, a wake-up that is already due). */
    void poll() {
        consumer.onContext(this::claim);
    }

    /** A producer announced a message due at {@code dueMillis} (Redis time). */
    void wakeAt(long dueMillis) {
        consumer.onContext(() -> armAt(dueMillis));
    }

    private void armAt(long redisMillis) {
        long delay = redisMillis - (System.currentTimeMillis() + clockOffsetMillis);
        if (delay <= 0) {
            claim();
        } else {
            armTimer(delay + 1); // a millisecond late rather than early: Redis compares whole milliseconds
        }
    }

    private void armTimer(long delayMillis) {
        if (!stopping) {
            timer.armIn(delayMillis);
        }
    }

    private void claim() {
        if (stopping) {
            return;
        }
        if (claiming) {
            claimAgain = true;
            return;
        }
        int room = prefetchLimit - held.size();
        int wanted = Math.min(batchSize, prefetchLimit);
        if (room < Math.max(1, wanted / 2)) {
            // Busy: claim again when handlers finish.
            claimAgain = true;
            return;
        }
        int max = Math.min(batchSize, room);
        claiming = true;
        claimAgain = false;
        String nonce = noncePrefix + (++nonceSequence);
        List<String> args = List.of(Integer.toString(max), leaseArgument, RECLAIM_ARGUMENT, nonce);
        consumer.redis.eval(DelayedScripts.CLAIM, keys.all, args).subscribe().with(
                response -> consumer.onContext(() -> claimed(response, max)),
                failure -> consumer.onContext(() -> claimFailed(failure)));
    }

    private void claimFailed(Throwable failure) {
        claiming = false;
        if (claimFailures++ == 0) {
            LOG.warnf("Claiming messages of delay queue %s failed, retrying: %s", keys.queue, failure.toString());
        } else {
            LOG.debugf("Claiming messages of delay queue %s failed again: %s", keys.queue, failure.toString());
        }
        if (stopping) {
            checkStopped();
            return;
        }
        // Transient failures (a busy connection pool, a failover) retry soon; the safety poll covers the rest.
        armTimer(RetryDelay.afterFailures(claimFailures, ThreadLocalRandom.current().nextDouble()));
    }

    private void claimed(Response response, int max) {
        claiming = false;
        claimFailures = 0;
        ClaimReply reply = ClaimReply.of(response);
        clockOffsetMillis = reply.nowMillis() - System.currentTimeMillis();
        int count = reply.messages().size();
        counters.claimed(count, reply.reclaimed());
        for (ClaimedMessage message : reply.messages()) {
            long lateness = Math.max(0, reply.nowMillis() - message.dueMillis());
            counters.lateness(lateness);
            consumer.metrics.lateness(keys.queue, lateness);
            if (stopping) {
                returns.release(message);
            } else {
                held.put(message.token(), message);
                waiting.add(message);
            }
        }
        if (stopping) {
            checkStopped();
            return;
        }
        startWaiting();
        if (count >= max || reply.reclaimed() >= RECLAIM_LIMIT) {
            claimAgain = true; // more may be due right now
        } else if (reply.nextDueMillis() >= 0) {
            armAt(reply.nextDueMillis());
        }
        if (claimAgain) {
            claim();
        }
    }

    private void startWaiting() {
        while (!waiting.isEmpty() && consumer.tryAcquireSlot()) {
            ClaimedMessage message = waiting.poll();
            Context handlerContext = VertxContext.createNewDuplicatedContext(consumer.context);
            DeliveryTrace trace = consumer.tracing.process(keys.queue, message.id(), message.attempt(),
                    message.redeliveries(), Math.max(0, redisNow() - message.dueMillis()), message.traceContext(),
                    handlerContext);
            Object argument;
            try {
                argument = consumer.arguments.of(message);
            } catch (Exception e) {
                trace.end(DeliveryOutcome.DEAD_LETTER, -1, e);
                consumer.releaseSlot();
                // A payload that cannot be decoded will never be: dead-letter it without burning attempts.
                held.remove(message.token());
                LOG.warnf("Message %s of delay queue %s has a payload %s cannot decode; dead-lettering it: %s",
                        message.id(), keys.queue, consumer.settings.definition().describe(), e.toString());
                returns.deadLetter(message, "Undecodable payload: " + e);
                continue;
            }
            running++;
            consumer.invoker.invoke(handlerContext, argument, () -> stopping,
                    failure -> consumer.onContext(() -> finished(message, failure, trace)));
        }
    }

    /** Now in Redis time, as far as this instance can tell. */
    private long redisNow() {
        return System.currentTimeMillis() + clockOffsetMillis;
    }

    private void finished(ClaimedMessage message, Throwable failure, DeliveryTrace trace) {
        running--;
        consumer.releaseSlot();
        held.remove(message.token());
        if (failure == null) {
            trace.end(DeliveryOutcome.SUCCESS, -1, null);
            counters.delivered.incrementAndGet();
            acks.ack(message);
        } else if (failure == HandlerInvoker.NOT_STARTED) {
            trace.end(DeliveryOutcome.RELEASED, -1, null);
            returns.release(message);
        } else if (ThrottledRetry.delayMillis(failure) >= 0) {
            trace.end(DeliveryOutcome.THROTTLED, ThrottledRetry.delayMillis(failure), failure);
            returns.throttled(message, ThrottledRetry.delayMillis(failure));
        } else {
            counters.failed.incrementAndGet();
            LOG.debugf(failure, "%s failed for message %s (attempt %d)", consumer.settings.definition().describe(),
                    message.id(), message.attempt());
            returns.retry(message, reason(failure), ending(trace, failure));
        }
        if (stopping) {
            checkStopped();
            return;
        }
        resume();
        consumer.resumeOthers(this);
    }

    /** Ends the attempt's span when Redis answered whether the failed message is retried or dead-lettered. */
    private MessageNacks.Returned ending(DeliveryTrace trace, Throwable failure) {
        if (trace == DeliveryTrace.NONE) {
            return MessageNacks.Returned.IGNORED;
        }
        return (outcome, millis) -> {
            switch (outcome) {
                case RETRIED -> trace.end(DeliveryOutcome.RETRY, Math.max(0, millis - redisNow()), failure);
                case DEAD_LETTERED -> trace.end(DeliveryOutcome.DEAD_LETTER, -1, failure);
                default -> trace.end(DeliveryOutcome.LOST, -1, failure);
            }
        };
    }

    /** Starts waiting messages if a slot is free, and claims if a claim was put off. */
    void resume() {
        if (stopping) {
            return;
        }
        startWaiting();
        if (claimAgain) {
            claim();
        }
    }

    private static String reason(Throwable failure) {
        Throwable cause = failure;
        if (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String text = cause.getClass().getName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        return text.length() > MAX_REASON_LENGTH ? text.substring(0, MAX_REASON_LENGTH) : text;
    }

    /**
     * Stops claiming, releases messages whose handler has not started, and completes once running handlers have
     * finished and their outcome reached Redis.
     */
    CompletableFuture<Void> stop() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        consumer.onContext(() -> {
            stopping = true;
            stopped = done;
            timer.cancel();
            while (!waiting.isEmpty()) {
                ClaimedMessage message = waiting.poll();
                held.remove(message.token());
                returns.release(message);
            }
            checkStopped();
        });
        return done;
    }

    private void checkStopped() {
        if (stopped != null && !stopped.isDone() && running == 0 && returns.isIdle() && !claiming && acks.isIdle()
                && renewer.isIdle()) {
            renewer.stop();
            stopped.complete(null);
        }
    }
}
