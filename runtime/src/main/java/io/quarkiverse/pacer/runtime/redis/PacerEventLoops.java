package io.quarkiverse.pacer.runtime.redis;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.EventLoopGroup;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.impl.VertxThread;
import io.vertx.core.spi.transport.Transport;

/**
 * Event-loop threads of Pacer's own ({@code pacer-redis-N}, {@code pacer-redis-<port>-N} ...), opened on first use: the
 * connections to one Redis
 * node live on them, so answers are read at once, never behind the application's HTTP requests on a shared event loop,
 * and on Redis Cluster never behind the work of another master's connections or of the slot map.
 */
final class PacerEventLoops {

    private final VertxInternal vertx;
    private final String name;
    private final int threads;
    private EventLoopGroup group;
    private volatile ContextInternal executorContext;

    /**
     * @param name the threads' names, before their number
     * @param threads how many threads at most
     */
    PacerEventLoops(Vertx vertx, String name, int threads) {
        this.vertx = (VertxInternal) vertx;
        this.name = name;
        this.threads = Math.max(1, threads);
    }

    /** A new event-loop context on these threads, in turn: a connection's state lives on one thread, without locks. */
    synchronized ContextInternal newContext() {
        if (group == null) {
            AtomicInteger count = new AtomicInteger();
            group = vertx.transport().eventLoopGroup(Transport.IO_EVENT_LOOP_GROUP, threads,
                    task -> new VertxThread(task, name + count.getAndIncrement(), false, 2,
                            TimeUnit.SECONDS),
                    50);
        }
        return vertx.createEventLoopContext(group.next(), vertx.getWorkerPool(),
                PacerEventLoops.class.getClassLoader());
    }

    /**
     * Runs tasks on one context of these threads, in order; after {@link #close()} on the caller's thread (so a late
     * answer is still handled).
     */
    Executor executor() {
        return task -> {
            ContextInternal context = executorContext;
            if (context == null) {
                synchronized (this) {
                    context = executorContext;
                    if (context == null) {
                        context = newContext();
                        executorContext = context;
                    }
                }
            }
            try {
                context.runOnContext(ignored -> task.run());
            } catch (RejectedExecutionException closed) {
                task.run();
            }
        };
    }

    void close() {
        EventLoopGroup current;
        synchronized (this) {
            current = group;
        }
        if (current != null) {
            current.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
    }
}
