package io.quarkiverse.pacer.runtime.redis;

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;

/**
 * Pacer's connections on the application's own event loops, one per event loop that asked, opened on first use: a
 * request made on an event loop of the application (an HTTP request's, say) is written, read and answered on that very
 * thread, without a hand-over to Pacer's threads and back. Pacer's own event loops ({@link PacerEventLoops}) are not the
 * application's, so their work never lands here. At most one connection per event loop of the application, each with
 * a Redis client of its own ({@link LoopClient}).
 */
final class CallerLoopConnections {

    private final VertxInternal vertx;
    /** Opens a connection on the given event-loop context. */
    private final Function<ContextInternal, PipelinedConnection> open;
    /** The application's event loops, fixed while Vert.x runs; read without locks. */
    private final Set<EventLoop> applicationLoops;
    private final Map<EventLoop, PipelinedConnection> connections = new ConcurrentHashMap<>();

    CallerLoopConnections(Vertx vertx, Function<ContextInternal, PipelinedConnection> open) {
        this.vertx = (VertxInternal) vertx;
        this.open = open;
        this.applicationLoops = applicationLoops(this.vertx);
    }

    private static Set<EventLoop> applicationLoops(VertxInternal vertx) {
        Set<EventLoop> loops = Collections.newSetFromMap(new IdentityHashMap<>());
        for (EventExecutor executor : vertx.getEventLoopGroup()) {
            if (executor instanceof EventLoop loop) {
                loops.add(loop);
            }
        }
        return loops;
    }

    /**
     * The connection of the caller's event loop, opened when first asked for; {@code null} when this thread is not
     * {@code caller}'s event loop or that loop is not one of the application's.
     */
    PipelinedConnection of(Context caller) {
        if (!(caller instanceof ContextInternal context) || !context.isEventLoopContext()) {
            return null;
        }
        EventLoop loop = context.nettyEventLoop();
        if (!loop.inEventLoop() || !applicationLoops.contains(loop)) {
            return null;
        }
        PipelinedConnection connection = connections.get(loop);
        return connection != null ? connection
                : connections.computeIfAbsent(loop, on -> open.apply(vertx.createEventLoopContext(on,
                        vertx.getWorkerPool(), CallerLoopConnections.class.getClassLoader())));
    }

    /** The connections opened so far. */
    Collection<PipelinedConnection> all() {
        return connections.values();
    }
}
