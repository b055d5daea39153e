package io.quarkiverse.pacer.runtime.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import io.netty.channel.EventLoopGroup;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.RedisTransportConfig;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.redis.client.RedisClientName;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.impl.VertxThread;
import io.vertx.core.spi.transport.Transport;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Pacer's single door to Redis: the Quarkus Redis client Pacer is configured to use
 * ({@code quarkus.pacer.redis-client-name}, else the default client), reached over Pacer's own long-lived, pipelined
 * connections ({@link PipelinedConnection}, {@code quarkus.pacer.redis.*}).
 * <p>
 * Every request has a time budget counted from the moment it is written to Redis; it fails with
 * {@link RedisTimeoutException} when Redis does not answer within it, with {@link RedisUnavailableException} when Redis
 * cannot be reached, and with Redis's own error when Redis answers with one. Client-side load alone never fails a
 * request.
 * <p>
 * Scripts run with {@code EVALSHA}; on {@code NOSCRIPT} (Redis restarted, failed over or ran {@code SCRIPT FLUSH}) the
 * same call is retried once with {@code EVAL}, which also caches the script again, so callers never see the error.
 */
@Singleton
public class PacerRedis {

    private final String clientName;
    private final RedisTransportConfig transport;
    private final Vertx vertx;
    private final AtomicInteger next = new AtomicInteger();
    private volatile Redis redis;
    private volatile PipelinedConnection[] connections;
    /** For writes followed by {@code WAIT} ({@code quarkus.pacer.delayed.durability=replicas}); opened on first use. */
    private volatile PipelinedConnection durableConnection;
    private EventLoopGroup eventLoops;
    private volatile Redis ownClient;
    private boolean ownsClient;

    PacerRedis(PacerBuildTimeConfig config, PacerConfig runtimeConfig, Vertx vertx) {
        this.clientName = config.redisClientName().orElse(null);
        this.transport = runtimeConfig.redis();
        this.vertx = vertx;
    }

    /**
     * The bare Vert.x Redis client, resolved lazily so an application that never calls Pacer does not need Redis.
     * For connections of their own (pub/sub); requests go through {@link #send(Request)}.
     */
    public Redis client() {
        Redis current = redis;
        if (current == null) {
            InstanceHandle<Redis> handle = clientName == null
                    ? Arc.container().instance(Redis.class)
                    : Arc.container().instance(Redis.class, RedisClientName.Literal.of(clientName));
            current = handle.get();
            redis = current;
        }
        return current;
    }

    /**
     * The name of the Redis client in use, for messages: {@code <default>} or the configured name.
     */
    public String clientDisplayName() {
        return clientName == null ? "<default>" : clientName;
    }

    /** The default time budget of a request ({@code quarkus.pacer.redis.timeout}). */
    public Duration timeout() {
        return transport.timeout();
    }

    /**
     * Sends one command within the default time budget. The returned {@link Uni} is lazy: nothing is sent until
     * subscription.
     */
    public Uni<Response> send(Request request) {
        return send(request, transport.timeout());
    }

    /**
     * Sends one command; it fails when Redis has not answered {@code budget} after the command was written.
     */
    public Uni<Response> send(Request request, Duration budget) {
        return send(connection(), request, budget);
    }

    /**
     * Runs a script with {@code EVALSHA} within the default time budget, reloading it transparently on
     * {@code NOSCRIPT}.
     *
     * @param script the script
     * @param keys the {@code KEYS} array
     * @param args the {@code ARGV} array
     */
    public Uni<Response> eval(LuaScript script, List<String> keys, List<String> args) {
        return eval(script, keys, args, transport.timeout());
    }

    /**
     * Runs a script with {@code EVALSHA}, reloading it transparently on {@code NOSCRIPT}; each round trip has the
     * time budget {@code budget}.
     */
    public Uni<Response> eval(LuaScript script, List<String> keys, List<String> args, Duration budget) {
        return send(scriptRequest(Command.EVALSHA, script.sha1(), keys, args), budget)
                .onFailure(PacerRedis::isNoScript)
                .recoverWithUni(() -> send(scriptRequest(Command.EVAL, script.source(), keys, args), budget));
    }

    /**
     * Runs a script like {@link #eval(LuaScript, List, List, Duration)}, for a caller that blocks on the answer (never
     * an event-loop thread): the future is completed on Pacer's connection thread, without the Mutiny operators, and
     * the context propagation each of them carries, that a {@link Uni} chain costs per call.
     */
    public CompletableFuture<Response> evalFuture(LuaScript script, List<String> keys, List<String> args,
            Duration budget) {
        PipelinedConnection connection = connection();
        return sendFuture(connection, scriptRequest(Command.EVALSHA, script.sha1(), keys, args), budget)
                .exceptionallyCompose(failure -> isNoScript(failure)
                        ? sendFuture(connection, scriptRequest(Command.EVAL, script.source(), keys, args), budget)
                        : CompletableFuture.failedFuture(failure));
    }

    private static CompletableFuture<Response> sendFuture(PipelinedConnection connection, Request request,
            Duration budget) {
        CompletableFuture<Response> future = new CompletableFuture<>();
        connection.submit(new PendingRequest(request, budget.toNanos(), future::complete, future::completeExceptionally,
                null));
        return future;
    }

    /**
     * Runs a script, then {@code WAIT <replicas> <timeout>} right after it on the same connection, so the wait covers
     * the script's writes. Emits the script's response and the number of replicas that acknowledged them.
     * <p>
     * Both go over a connection of their own: {@code WAIT} holds its connection until the replicas answer, which must
     * never stall the decisions and queue operations pipelined on Pacer's other connections.
     */
    public Uni<ReplicatedResponse> evalAndWait(LuaScript script, List<String> keys, List<String> args, int replicas,
            Duration timeout) {
        Duration budget = transport.timeout().plus(timeout);
        return scriptThenWait(Command.EVALSHA, script.sha1(), keys, args, replicas, timeout, budget)
                .onFailure(PacerRedis::isNoScript)
                .recoverWithUni(() -> scriptThenWait(Command.EVAL, script.source(), keys, args, replicas, timeout,
                        budget));
    }

    private Uni<ReplicatedResponse> scriptThenWait(Command command, String scriptOrSha, List<String> keys,
            List<String> args, int replicas, Duration timeout, Duration budget) {
        PipelinedConnection connection = durableConnection();
        Uni<Response> script = send(connection, scriptRequest(command, scriptOrSha, keys, args), budget);
        Uni<Response> wait = send(connection, Request.cmd(Command.WAIT).arg(replicas).arg(timeout.toMillis()), budget);
        // Subscribed in this order on one thread, so the connection writes WAIT right behind the script.
        return Uni.combine().all().unis(script, wait).with((written, acknowledged) -> new ReplicatedResponse(written,
                acknowledged.toInteger()));
    }

    /** A script's response and how many replicas acknowledged its writes. */
    public record ReplicatedResponse(Response response, int replicas) {
    }

    private Uni<Response> send(PipelinedConnection connection, Request request, Duration budget) {
        long budgetNanos = budget.toNanos();
        return Uni.createFrom().emitter(emitter -> {
            Context caller = Context.isOnEventLoopThread() ? Vertx.currentContext() : null;
            PendingRequest pending = new PendingRequest(request, budgetNanos, emitter::complete, emitter::fail, caller);
            emitter.onTermination(pending::cancel);
            connection.submit(pending);
        });
    }

    private PipelinedConnection durableConnection() {
        PipelinedConnection current = durableConnection;
        return current != null ? current : openDurableConnection();
    }

    private synchronized PipelinedConnection openDurableConnection() {
        if (durableConnection == null) {
            if (connections == null) {
                openConnections();
            }
            VertxInternal internal = (VertxInternal) vertx;
            ContextInternal context = internal.createEventLoopContext(eventLoops.next(), internal.getWorkerPool(),
                    PacerRedis.class.getClassLoader());
            durableConnection = new PipelinedConnection(context, this::transportClient, this::discardClient,
                    Math.max(1, transport.maxInFlight()), Math.max(1, transport.maxQueued()));
        }
        return durableConnection;
    }

    static boolean isNoScript(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("NOSCRIPT");
    }

    /** The client Pacer's pipelined connections are opened with: its own when possible, else the shared one. */
    private Redis transportClient() {
        Redis current = ownClient;
        if (current == null) {
            synchronized (this) {
                current = ownClient;
                if (current == null) {
                    current = PacerRedisClientFactory.create(vertx, clientName);
                    if (current == null) {
                        current = client();
                    } else {
                        ownsClient = true;
                    }
                    ownClient = current;
                }
            }
        }
        return current;
    }

    /**
     * After a stalled connection: closes Pacer's own client, which closes its pooled sockets for real (a connection
     * closed by its user goes back to the pool, dead or not), so the next connection is a new socket. The application's
     * shared client, when Pacer has to use it, is left alone.
     */
    private synchronized void discardClient() {
        Redis current = ownClient;
        if (current != null && ownsClient) {
            ownClient = null;
            ownsClient = false;
            current.close();
        }
    }

    private PipelinedConnection connection() {
        PipelinedConnection[] current = connections;
        if (current == null) {
            current = openConnections();
        }
        return current.length == 1 ? current[0] : current[Math.floorMod(next.getAndIncrement(), current.length)];
    }

    private synchronized PipelinedConnection[] openConnections() {
        PipelinedConnection[] current = connections;
        if (current == null) {
            int count = Math.max(1, transport.connections());
            VertxInternal internal = (VertxInternal) vertx;
            // Event-loop threads of Pacer's own, as Redis clients have: answers are read at once, never behind the
            // application's HTTP requests on a shared event loop.
            AtomicInteger threads = new AtomicInteger();
            eventLoops = internal.transport().eventLoopGroup(Transport.IO_EVENT_LOOP_GROUP, count,
                    task -> new VertxThread(task, "pacer-redis-" + threads.getAndIncrement(), false, 2,
                            TimeUnit.SECONDS),
                    50);
            current = new PipelinedConnection[count];
            for (int i = 0; i < count; i++) {
                // A context per connection: its state lives on one event-loop thread, without locks.
                ContextInternal context = internal.createEventLoopContext(eventLoops.next(), internal.getWorkerPool(),
                        PacerRedis.class.getClassLoader());
                current[i] = new PipelinedConnection(context, this::transportClient, this::discardClient,
                        Math.max(1, transport.maxInFlight()), Math.max(1, transport.maxQueued()));
            }
            connections = current;
        }
        return current;
    }

    @PreDestroy
    void close() {
        PipelinedConnection durable = durableConnection;
        if (durable != null) {
            durable.shutdown();
        }
        PipelinedConnection[] current = connections;
        if (current != null) {
            for (PipelinedConnection connection : current) {
                connection.shutdown();
            }
        }
        Redis own = ownClient;
        if (own != null && ownsClient) {
            own.close();
        }
        EventLoopGroup loops = eventLoops;
        if (loops != null) {
            loops.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
    }

    private static Request scriptRequest(Command command, String scriptOrSha, List<String> keys, List<String> args) {
        Request request = Request.cmd(command).arg(scriptOrSha).arg(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            request.arg(keys.get(i));
        }
        for (int i = 0; i < args.size(); i++) {
            request.arg(args.get(i));
        }
        return request;
    }
}
