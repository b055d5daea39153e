package io.quarkiverse.pacer.runtime.delay.consumer;

import static io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumerLoop.LOG;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.RetryDelay;

/**
 * Acknowledges the handled messages of one shard: acks finished in the same turn of the event loop travel together,
 * one call at a time, and acks that finish meanwhile go in the next call. Confined to the consumer's context.
 */
final class AckBatcher {

    /** Attempts at sending a batch before leaving its messages to lease expiry. */
    static final int MAX_SEND_ATTEMPTS = MessageNacks.MAX_SEND_ATTEMPTS;

    private final QueueConsumer consumer;
    private final DelayedKeys keys;
    private final Runnable whenDone;
    /** (id, token) pairs waiting to be sent. */
    private final List<String> pending = new ArrayList<>();
    private boolean flushScheduled;
    private boolean inFlight;
    private int failures;

    AckBatcher(QueueConsumer consumer, DelayedKeys keys, Runnable whenDone) {
        this.consumer = consumer;
        this.keys = keys;
        this.whenDone = whenDone;
    }

    boolean isIdle() {
        return pending.isEmpty() && !inFlight && !flushScheduled;
    }

    void ack(ClaimedMessage message) {
        pending.add(message.id());
        pending.add(message.token());
        if (!flushScheduled && !inFlight) {
            flushScheduled = true;
            consumer.context.runOnContext(v -> flush());
        }
    }

    private void flush() {
        flushScheduled = false;
        if (pending.isEmpty() || inFlight) {
            whenDone.run();
            return;
        }
        int end = Math.min(pending.size(), DelayedScripts.MAX_PAIRS_PER_CALL * 2);
        List<String> args = new ArrayList<>(end);
        args.addAll(pending.subList(0, end));
        pending.subList(0, end).clear();
        inFlight = true;
        consumer.redis.eval(DelayedScripts.ACK, keys.all, args).subscribe().with(
                acked -> consumer.onContext(() -> {
                    failures = 0;
                    inFlight = false;
                    flush();
                }),
                failure -> consumer.onContext(() -> failed(args, failure)));
    }

    private void failed(List<String> args, Throwable failure) {
        inFlight = false;
        if (++failures >= MAX_SEND_ATTEMPTS) {
            failures = 0;
            LOG.warnf("Acknowledging %d messages of delay queue %s failed, they will be redelivered when their leases"
                    + " expire: %s", args.size() / 2, keys.queue, failure.toString());
            flush();
            return;
        }
        // Put the pairs back in front and try again shortly: a lost ack means a duplicate delivery.
        pending.addAll(0, args);
        flushScheduled = true;
        consumer.vertx.setTimer(RetryDelay.afterFailures(failures, ThreadLocalRandom.current().nextDouble()),
                id -> consumer.onContext(this::flush));
    }
}
