package io.quarkiverse.pacer.runtime.delay.consumer;

import static io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumerLoop.LOG;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;

/**
 * Extends the leases of every message one shard holds, every third of the lease, in calls of bounded size; a renewal
 * is skipped while the last one runs. Confined to the consumer's context.
 */
final class LeaseRenewer {

    private final QueueConsumer consumer;
    private final DelayedKeys keys;
    private final Supplier<Collection<ClaimedMessage>> held;
    private final Runnable whenDone;
    private final String leaseArgument;
    private long timerId = -1;
    /** Renewal calls sent and not yet answered. */
    private int calls;

    LeaseRenewer(QueueConsumer consumer, DelayedKeys keys, Supplier<Collection<ClaimedMessage>> held,
            Runnable whenDone) {
        this.consumer = consumer;
        this.keys = keys;
        this.held = held;
        this.whenDone = whenDone;
        this.leaseArgument = Long.toString(consumer.settings.leaseMillis());
    }

    /** Called on the consumer's context, where the renewals then run. */
    void start() {
        timerId = consumer.vertx.setPeriodic(consumer.settings.renewalPeriodMillis(), id -> renew());
    }

    void stop() {
        if (timerId != -1) {
            consumer.vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    boolean isIdle() {
        return calls == 0;
    }

    private void renew() {
        Collection<ClaimedMessage> messages = held.get();
        if (messages.isEmpty() || calls > 0) {
            return;
        }
        List<String> pairs = new ArrayList<>(messages.size() * 2);
        for (ClaimedMessage message : messages) {
            pairs.add(message.id());
            pairs.add(message.token());
        }
        int chunk = DelayedScripts.MAX_PAIRS_PER_CALL * 2;
        for (int from = 0; from < pairs.size(); from += chunk) {
            List<String> args = new ArrayList<>(1 + Math.min(chunk, pairs.size() - from));
            args.add(leaseArgument);
            args.addAll(pairs.subList(from, Math.min(pairs.size(), from + chunk)));
            calls++;
            consumer.redis.eval(DelayedScripts.RENEW, keys.all, args).subscribe().with(
                    renewed -> consumer.onContext(this::done),
                    failure -> consumer.onContext(() -> {
                        LOG.warnf("Renewing leases on delay queue %s failed: %s", keys.queue, failure.toString());
                        done();
                    }));
        }
    }

    private void done() {
        calls--;
        whenDone.run();
    }
}
