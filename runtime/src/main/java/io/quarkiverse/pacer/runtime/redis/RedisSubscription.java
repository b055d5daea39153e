package io.quarkiverse.pacer.runtime.redis;

import java.util.List;

import org.jboss.logging.Logger;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * One pub/sub connection of Pacer's own (never one of its request connections) subscribed to fixed channels. It is
 * opened on demand and, once dropped (closed by Redis, failed, or given up by its owner), stays closed until the
 * owner calls {@link #open()} again: owners reopen it from a timer they already have, or ask it to reopen itself
 * ({@link #reopeningWith(Vertx)}) when their own timer is too slow for what the messages are for.
 */
public final class RedisSubscription {

    private static final Logger LOG = Logger.getLogger(RedisSubscription.class);

    static final long MIN_REOPEN_MILLIS = 100;
    static final long MAX_REOPEN_MILLIS = 2_000;

    /** What the owner does with the subscription's events; called on the connection's event loop. */
    public interface Listener {

        /** A message published on one of the channels. */
        void onMessage(String channel, String message);

        /** Redis confirmed the subscription: messages published from now on arrive. */
        default void onSubscribed() {
        }

        /** The connection is gone; messages published from now on are missed until it is open again. */
        default void onDropped() {
        }
    }

    private final PacerRedis redis;
    private final List<String> channels;
    private final String purpose;
    private final Listener listener;
    private RedisConnection connection;
    private boolean connecting;
    private boolean closed;
    private Vertx reopenWith;
    private long reopenTimer = -1;
    private long reopenDelayMillis = MIN_REOPEN_MILLIS;

    /**
     * @param purpose what the subscription is for and what happens without it, for the debug log
     */
    public RedisSubscription(PacerRedis redis, List<String> channels, String purpose, Listener listener) {
        this.redis = redis;
        this.channels = List.copyOf(channels);
        this.purpose = purpose;
        this.listener = listener;
    }

    /**
     * Reopens the subscription by itself whenever it drops or fails to open: after {@value #MIN_REOPEN_MILLIS} ms, then
     * twice as long after each failed attempt, up to {@value #MAX_REOPEN_MILLIS} ms (a failover takes seconds). The
     * listener's {@link Listener#onSubscribed()} tells when messages arrive again.
     */
    public synchronized RedisSubscription reopeningWith(Vertx vertx) {
        this.reopenWith = vertx;
        return this;
    }

    /** Opens the subscription unless it is open, opening or closed for good. */
    public synchronized void open() {
        if (closed || connecting || connection != null || channels.isEmpty()) {
            return;
        }
        connecting = true;
        redis.connectForSubscription().onComplete(ar -> {
            if (ar.failed()) {
                synchronized (this) {
                    connecting = false;
                }
                LOG.debugf("Cannot subscribe to %s (%s): %s", channels, purpose, ar.cause());
                reopenLater();
                return;
            }
            RedisConnection opened = ar.result();
            boolean kept;
            synchronized (this) {
                connecting = false;
                kept = !closed;
                if (kept) {
                    connection = opened;
                }
            }
            if (!kept) {
                opened.close();
                return;
            }
            opened.handler(this::onMessage);
            opened.exceptionHandler(failure -> dropped(opened));
            opened.endHandler(ignored -> dropped(opened));
            Request subscribe = Request.cmd(Command.SUBSCRIBE);
            channels.forEach(subscribe::arg);
            opened.send(subscribe).onComplete(subscribed -> {
                if (subscribed.failed()) {
                    dropped(opened);
                } else if (isCurrent(opened)) {
                    synchronized (this) {
                        reopenDelayMillis = MIN_REOPEN_MILLIS;
                    }
                    listener.onSubscribed();
                }
            });
        });
    }

    private synchronized boolean isCurrent(RedisConnection which) {
        return connection == which;
    }

    /** Whether a connection is open (subscribed or subscribing). */
    public synchronized boolean isOpen() {
        return connection != null;
    }

    /** Gives up the current connection, e.g. when it has been silent too long; {@link #open()} opens a new one. */
    public void drop() {
        RedisConnection current;
        synchronized (this) {
            current = connection;
        }
        if (current != null) {
            dropped(current);
        }
    }

    /*
     * Connections are closed and the listener told outside this object's lock: a connection ending on the event loop
     * holds its own lock while calling dropped(), so closing it while holding ours could deadlock (seen at shutdown).
     */
    private void dropped(RedisConnection which) {
        synchronized (this) {
            if (connection != which) {
                return;
            }
            connection = null;
        }
        which.close();
        listener.onDropped();
        reopenLater();
    }

    private synchronized void reopenLater() {
        if (reopenWith == null || closed || reopenTimer != -1) {
            return;
        }
        long delay = reopenDelayMillis;
        reopenDelayMillis = Math.min(delay * 2, MAX_REOPEN_MILLIS);
        reopenTimer = reopenWith.setTimer(delay, id -> {
            synchronized (this) {
                reopenTimer = -1;
            }
            open();
        });
    }

    private void onMessage(Response message) {
        // RESP2 delivers ["message", channel, data] as an array, RESP3 as a push; both index the same way.
        if (message == null || message.size() < 3 || !"message".equals(message.get(0).toString())) {
            return;
        }
        listener.onMessage(message.get(1).toString(), message.get(2).toString());
    }

    /** Closes the connection for good. */
    public void close() {
        RedisConnection current;
        synchronized (this) {
            closed = true;
            current = connection;
            connection = null;
            if (reopenTimer != -1) {
                reopenWith.cancelTimer(reopenTimer);
                reopenTimer = -1;
            }
        }
        if (current != null) {
            current.close();
        }
    }
}
