package io.quarkiverse.pacer.runtime.redis;

import java.util.function.Supplier;

import io.vertx.redis.client.Redis;

/**
 * The Redis client of one connection on an application event loop ({@link CallerLoopConnections}): a client of its
 * own, so the connection's socket is always a new one, opened on that event loop and read there. A socket taken from a
 * shared pool would belong to the thread that first opened it (one of Pacer's), and every answer would cross threads
 * again.
 */
final class LoopClient {

    private final Supplier<Redis> factory;
    private Redis client;
    private boolean closed;

    LoopClient(Supplier<Redis> factory) {
        this.factory = factory;
    }

    /** The client, built on first use and after {@link #discard()}; {@code null} once closed. */
    synchronized Redis get() {
        if (client == null && !closed) {
            client = factory.get();
        }
        return client;
    }

    /** After a stall: closes the client, so its sockets are closed for real and the next connection is a new one. */
    synchronized void discard() {
        Redis current = client;
        client = null;
        if (current != null) {
            current.close();
        }
    }

    /** For good, at shutdown. */
    synchronized void close() {
        closed = true;
        discard();
    }
}
