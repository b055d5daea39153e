package io.quarkiverse.pacer.runtime.throttle.engine;

import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.LocalRejectionsConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisSubscription;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Tells every instance about a {@code reset}, so each drops its locally cached rejection of that (policy, key)
 * ({@link RejectionCache}). Resets are published on {@code <prefix>:throttle-resets}; each instance listens on one
 * pub/sub connection of its own (never Pacer's request connections).
 * <p>
 * Exactness never depends on this channel: the cache answers only while the subscription is known to work. Every
 * {@link #HEARTBEAT_MILLIS} an instance publishes a heartbeat on the channel; without any message for
 * {@link #SILENCE_MILLIS} the subscription counts as broken, the cache is emptied and switched off, and the
 * subscription is reopened (the cache starts empty again once it is back). So a reset reaches every instance that
 * still short-circuits within {@link #SILENCE_MILLIS} at worst, and normally as soon as the message arrives: a reset
 * completes only after Redis has accepted the message for every subscriber.
 */
@Singleton
public class ThrottleResets implements RedisSubscription.Listener {

    private static final Logger LOG = Logger.getLogger(ThrottleResets.class);

    static final long HEARTBEAT_MILLIS = 500;
    /** Longest silence on the channel before the subscription counts as broken; the documented reset delay bound. */
    static final long SILENCE_MILLIS = 1_500;

    private static final String HEARTBEAT = "h";
    private static final String RESET = "r";

    private final PacerRedis redis;
    private final Vertx vertx;
    private final String channel;
    /** {@code null} when {@code quarkus.pacer.throttle.local-rejections.enabled=false}. */
    private final RejectionCache cache;
    private final RedisSubscription subscription;
    private boolean closed;
    private long timerId = -1;
    private volatile long lastMessageNanos;

    ThrottleResets(PacerRedis redis, PacerConfig config, Vertx vertx) {
        this.redis = redis;
        this.vertx = vertx;
        this.channel = channelOf(config.keyPrefix());
        LocalRejectionsConfig local = config.throttle().localRejections();
        this.cache = local.enabled() ? new RejectionCache(Math.max(1, local.maxSize())) : null;
        this.subscription = new RedisSubscription(redis, List.of(channel),
                "resets; rejected keys are not cached locally", this);
    }

    static String channelOf(String keyPrefix) {
        return keyPrefix + ":throttle-resets";
    }

    /** The cache of rejected keys, or {@code null} when the short-circuit is off. */
    RejectionCache cache() {
        return cache;
    }

    /** Starts listening (the short-circuit's precondition); only when it is on. */
    synchronized void start() {
        if (cache == null || closed || timerId >= 0) {
            return;
        }
        timerId = vertx.setPeriodic(HEARTBEAT_MILLIS, id -> heartbeat());
        subscription.open();
    }

    /**
     * Publishes the reset of {@code key} for every policy of the stack and forgets it here. Completes once Redis has
     * handed the message to every subscribed instance.
     */
    Uni<Void> publish(DecisionStack stack, String key) {
        Uni<Void> published = Uni.createFrom().voidItem();
        for (ThrottlePolicy policy : stack.policies) {
            if (cache != null) {
                cache.reset(policy.name, key);
            }
            String message = RESET + policy.name.length() + ":" + policy.name + key;
            published = published.chain(() -> redis.send(Request.cmd(Command.PUBLISH).arg(channel).arg(message)))
                    .replaceWithVoid();
        }
        return published;
    }

    /**
     * Forgets every rejection cached in this instance, for callers that changed what Redis would answer for many keys at
     * once: the test kit, after deleting a policy's state or moving its clock.
     */
    public void forgetLocalRejections() {
        if (cache != null) {
            cache.clear();
        }
    }

    @Override
    public void onSubscribed() {
        lastMessageNanos = System.nanoTime();
        // Resets published before this moment were missed: start empty.
        cache.setUsable(true);
    }

    @Override
    public void onDropped() {
        cache.setUsable(false);
    }

    /** Publishes a heartbeat, and gives up a subscription that has been silent too long. */
    private void heartbeat() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        if (!subscription.isOpen()) {
            subscription.open();
            return;
        }
        if (cache.usable() && System.nanoTime() - lastMessageNanos > TimeUnit.MILLISECONDS.toNanos(SILENCE_MILLIS)) {
            LOG.debugf("No message on %s for %d ms: rejected keys are not cached locally until it works again",
                    channel, SILENCE_MILLIS);
            subscription.drop();
            return;
        }
        redis.send(Request.cmd(Command.PUBLISH).arg(channel).arg(HEARTBEAT)).subscribe().with(ignored -> {
        }, failure -> LOG.tracef("Heartbeat on %s failed: %s", channel, failure));
    }

    @Override
    public void onMessage(String ignoredChannel, String text) {
        lastMessageNanos = System.nanoTime();
        if (!text.startsWith(RESET)) {
            return;
        }
        int colon = text.indexOf(':');
        try {
            int length = Integer.parseInt(text, 1, colon, 10);
            int policyEnd = colon + 1 + length;
            cache.reset(text.substring(colon + 1, policyEnd), text.substring(policyEnd));
        } catch (RuntimeException e) {
            // Not ours to read: be safe and forget everything.
            cache.clear();
        }
    }

    @PreDestroy
    void close() {
        synchronized (this) {
            closed = true;
            if (timerId >= 0) {
                vertx.cancelTimer(timerId);
            }
        }
        // Outside the lock, like every connection close (see RedisSubscription).
        subscription.close();
        if (cache != null) {
            cache.setUsable(false);
        }
    }
}
