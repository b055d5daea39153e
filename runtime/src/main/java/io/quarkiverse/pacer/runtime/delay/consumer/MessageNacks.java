package io.quarkiverse.pacer.runtime.delay.consumer;

import static io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumerLoop.LOG;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongConsumer;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.RetryDelay;
import io.quarkiverse.pacer.runtime.redis.LuaScript;

/**
 * Gives messages of one shard back to Redis when they were not handled successfully (a failure, a rate limit, an
 * undecodable payload, shutdown), repeating a call that fails a few times before leaving the message to lease expiry.
 * Confined to the consumer's context.
 */
final class MessageNacks {

    /** Retries never wait longer than this. */
    static final long BACKOFF_CAP_MILLIS = 3_600_000L;
    /** Attempts at sending a return before leaving the message to lease expiry. */
    static final int MAX_SEND_ATTEMPTS = 8;

    private final QueueConsumer consumer;
    private final DelayedKeys keys;
    private final ConsumerCounters counters;
    /** Told the due time of a message that is due again (Redis time). */
    private final LongConsumer dueAgainAt;
    private final Runnable whenDone;
    private final String maxAttempts;
    private final String backoffMillis;
    /** Returns sent and not yet answered. */
    private int pending;

    MessageNacks(QueueConsumer consumer, DelayedKeys keys, ConsumerCounters counters, LongConsumer dueAgainAt,
            Runnable whenDone) {
        this.consumer = consumer;
        this.keys = keys;
        this.counters = counters;
        this.dueAgainAt = dueAgainAt;
        this.whenDone = whenDone;
        this.maxAttempts = Integer.toString(consumer.settings.maxAttempts());
        this.backoffMillis = Long.toString(consumer.settings.backoffMillis());
    }

    boolean isIdle() {
        return pending == 0;
    }

    /**
     * A failed attempt: due again after its backoff, or a dead letter after the last attempt; {@code outcome} hears
     * which, with the due or dead-letter time (Redis time).
     */
    void retry(ClaimedMessage message, String reason, Returned outcome) {
        nack(message, NackAction.RETRY, reason, outcome);
    }

    void deadLetter(ClaimedMessage message, String reason) {
        nack(message, NackAction.DEAD, reason, Returned.IGNORED);
    }

    /** Gives back a message at shutdown, due at once for another instance. */
    void release(ClaimedMessage message) {
        nack(message, NackAction.RELEASE, "shutdown", Returned.IGNORED);
    }

    /** Told what a return did, once, on the consumer's context. */
    @FunctionalInterface
    interface Returned {
        Returned IGNORED = (outcome, millis) -> {
        };

        /** @param millis the due time or dead-letter time in Redis millis, or -1 */
        void returned(NackOutcome outcome, long millis);
    }

    /** Rate-limited, not failed: due again after {@code delayMillis}, with no attempt counted. */
    void throttled(ClaimedMessage message, long delayMillis) {
        pending++;
        send(message, DelayedScripts.THROTTLED, keys.all,
                List.of(message.id(), message.token(), Long.toString(delayMillis)), "throttled", Returned.IGNORED, 1);
    }

    private void nack(ClaimedMessage message, NackAction action, String reason, Returned outcome) {
        List<String> args = List.of(message.id(), message.token(), action.argument, maxAttempts,
                backoffMillis, Long.toString(BACKOFF_CAP_MILLIS),
                Double.toString(ThreadLocalRandom.current().nextDouble()), reason);
        pending++;
        send(message, DelayedScripts.NACK, keys.all, args, reason, outcome, 1);
    }

    private void send(ClaimedMessage message, LuaScript script, List<String> scriptKeys, List<String> args,
            String reason, Returned returned, int attempt) {
        consumer.redis.eval(script, scriptKeys, args).subscribe().with(
                response -> consumer.onContext(() -> {
                    NackOutcome outcome = NackOutcome.of(response.get(0).toInteger());
                    returned.returned(outcome, response.get(1).toLong());
                    switch (outcome) {
                        case RETRIED -> {
                            counters.retried.incrementAndGet();
                            dueAgainAt.accept(response.get(1).toLong());
                        }
                        case DEAD_LETTERED -> {
                            counters.deadLettered.incrementAndGet();
                            LOG.warnf("Message %s of delay queue %s was dead-lettered: %s", message.id(), keys.queue,
                                    reason);
                        }
                        case THROTTLED -> {
                            counters.throttled.incrementAndGet();
                            dueAgainAt.accept(response.get(1).toLong());
                        }
                        case RELEASED, UNCHANGED -> {
                        }
                    }
                    done();
                }),
                failure -> consumer.onContext(() -> {
                    if (attempt < MAX_SEND_ATTEMPTS) {
                        consumer.vertx.setTimer(RetryDelay.afterFailures(attempt, ThreadLocalRandom.current().nextDouble()),
                                id -> send(message, script, scriptKeys, args, reason, returned, attempt + 1));
                        return;
                    }
                    LOG.warnf("Returning message %s of delay queue %s failed, its lease will expire: %s", message.id(),
                            keys.queue, failure.toString());
                    returned.returned(NackOutcome.UNCHANGED, -1);
                    done();
                }));
    }

    private void done() {
        pending--;
        whenDone.run();
    }
}
