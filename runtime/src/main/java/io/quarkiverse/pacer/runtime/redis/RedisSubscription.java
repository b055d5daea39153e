package io.quarkiverse.pacer.runtime.redis;

import java.util.List;

import org.jboss.logging.Logger;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * One pub/sub connection of Pacer's own (never one of its request connections) subscribed to fixed channels. It is
 * opened on demand and, once dropped (closed by Redis, failed, or given up by its owner), stays closed until the
 * owner calls {@link #open()} again: owners reopen it from a timer they already have.
 */
public final class RedisSubscription {

    private static final Logger LOG = Logger.getLogger(RedisSubscription.class);

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

    /**
     * @param purpose what the subscription is for and what happens without it, for the debug log
     */
    public RedisSubscription(PacerRedis redis, List<String> channels, String purpose, Listener listener) {
        this.redis = redis;
        this.channels = List.copyOf(channels);
        this.purpose = purpose;
        this.listener = listener;
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
        }
        if (current != null) {
            current.close();
        }
    }
}
