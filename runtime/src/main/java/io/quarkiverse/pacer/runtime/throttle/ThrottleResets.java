package io.quarkiverse.pacer.runtime.throttle;

import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.LocalRejectionsConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

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
public class ThrottleResets {

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
    private RedisConnection connection;
    private boolean connecting;
    private boolean closed;
    private long timerId = -1;
    private volatile long lastMessageNanos;

    ThrottleResets(PacerRedis redis, PacerConfig config, Vertx vertx) {
        this.redis = redis;
        this.vertx = vertx;
        this.channel = channelOf(config.keyPrefix());
        LocalRejectionsConfig local = config.throttle().localRejections();
        this.cache = local.enabled() ? new RejectionCache(Math.max(1, local.maxSize())) : null;
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
        subscribe();
    }

    /**
     * Publishes the reset of {@code key} for every policy of the stack and forgets it here. Completes once Redis has
     * handed the message to every subscribed instance.
     */
    Uni<Void> publish(ThrottleStack stack, String key) {
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

    private synchronized void subscribe() {
        if (closed || connecting || connection != null) {
            return;
        }
        connecting = true;
        redis.client().connect().onComplete(ar -> {
            synchronized (this) {
                connecting = false;
                if (ar.failed()) {
                    LOG.debugf("Cannot subscribe to %s, rejected keys are not cached locally: %s", channel, ar.cause());
                    return;
                }
                RedisConnection opened = ar.result();
                if (closed) {
                    opened.close();
                    return;
                }
                connection = opened;
                opened.handler(this::onMessage);
                opened.exceptionHandler(failure -> dropped(opened));
                opened.endHandler(ignored -> dropped(opened));
                opened.send(Request.cmd(Command.SUBSCRIBE).arg(channel)).onComplete(subscribed -> {
                    if (subscribed.failed()) {
                        dropped(opened);
                        return;
                    }
                    synchronized (this) {
                        if (connection == opened) {
                            lastMessageNanos = System.nanoTime();
                            // Resets published before this moment were missed: start empty.
                            cache.setUsable(true);
                        }
                    }
                });
            }
        });
    }

    /** Publishes a heartbeat, and gives up a subscription that has been silent too long. */
    private void heartbeat() {
        RedisConnection broken = null;
        synchronized (this) {
            if (closed) {
                return;
            }
            if (connection == null) {
                subscribe();
                return;
            }
            if (cache.usable() && System.nanoTime() - lastMessageNanos > TimeUnit.MILLISECONDS.toNanos(SILENCE_MILLIS)) {
                broken = connection;
            }
        }
        if (broken != null) {
            LOG.debugf("No message on %s for %d ms: rejected keys are not cached locally until it works again",
                    channel, SILENCE_MILLIS);
            dropped(broken);
            return;
        }
        redis.send(Request.cmd(Command.PUBLISH).arg(channel).arg(HEARTBEAT)).subscribe().with(ignored -> {
        }, failure -> LOG.tracef("Heartbeat on %s failed: %s", channel, failure));
    }

    private void dropped(RedisConnection which) {
        synchronized (this) {
            if (connection != which) {
                return;
            }
            cache.setUsable(false);
            connection = null;
        }
        // Outside the lock: the client runs this end handler holding the connection's lock, and close() takes it.
        which.close();
    }

    private void onMessage(Response message) {
        // RESP2 delivers ["message", channel, data] as an array, RESP3 as a push; both index the same way.
        if (message == null || message.size() < 3 || !"message".equals(message.get(0).toString())) {
            return;
        }
        lastMessageNanos = System.nanoTime();
        String text = message.get(2).toString();
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
        RedisConnection current;
        synchronized (this) {
            closed = true;
            if (timerId >= 0) {
                vertx.cancelTimer(timerId);
            }
            current = connection;
            connection = null;
            if (cache != null) {
                cache.setUsable(false);
            }
        }
        // Outside the lock, as in dropped(): closing takes the connection's lock, which its end handler holds while
        // it waits for ours.
        if (current != null) {
            current.close();
        }
    }
}
