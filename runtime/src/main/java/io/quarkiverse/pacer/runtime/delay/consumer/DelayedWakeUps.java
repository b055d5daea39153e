package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.List;
import java.util.Map;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisSubscription;
import io.vertx.core.Vertx;

/**
 * Listens on the wake-up channels of the queues this instance consumes, one pub/sub connection for all of them, and
 * tells a loop when a producer stored a new earliest message. Correctness never depends on it: a lost notification
 * costs at most one poll interval. A dropped connection (a Redis restart or failover) is reopened at once, with a
 * short backoff, and every loop claims once it is back, for the notifications published while it was down.
 */
final class DelayedWakeUps implements RedisSubscription.Listener {

    private final Map<String, DelayedConsumerLoop> loopsByChannel;
    private final RedisSubscription subscription;
    private volatile boolean subscribedBefore;

    DelayedWakeUps(PacerRedis redis, Map<String, DelayedConsumerLoop> loopsByChannel, Vertx vertx) {
        this.loopsByChannel = loopsByChannel;
        this.subscription = new RedisSubscription(redis, List.copyOf(loopsByChannel.keySet()),
                "delay queue wake-ups; relying on polling", this).reopeningWith(vertx);
    }

    /** Opens the subscription unless it is open or opening. */
    void ensureSubscribed() {
        subscription.open();
    }

    @Override
    public void onSubscribed() {
        if (subscribedBefore) {
            // Back after a drop: what producers announced meanwhile was missed.
            loopsByChannel.values().forEach(DelayedConsumerLoop::poll);
        }
        subscribedBefore = true;
    }

    @Override
    public void onMessage(String channel, String message) {
        DelayedConsumerLoop loop = loopsByChannel.get(channel);
        if (loop != null) {
            try {
                loop.wakeAt(Long.parseLong(message));
            } catch (NumberFormatException e) {
                loop.poll();
            }
        }
    }

    void close() {
        subscription.close();
    }
}
