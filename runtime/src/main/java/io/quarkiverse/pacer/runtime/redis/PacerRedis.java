package io.quarkiverse.pacer.runtime.redis;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.netty.channel.EventLoopGroup;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.RedisTransportConfig;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.redis.client.RedisClientName;
import io.quarkus.redis.runtime.client.config.RedisClientConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.impl.VertxThread;
import io.vertx.core.spi.transport.Transport;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisConnection;
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
 * On Redis Cluster ({@code quarkus.redis.client-type=cluster}) Pacer routes each request to the master of its key's
 * slot itself ({@link ClusterRouter}), over connections of its own per master, so one unreachable master stops only the
 * requests of its slots; Standalone and Sentinel use one group of connections ({@link NodeConnections}).
 * <p>
 * Scripts run with {@code EVALSHA}; on {@code NOSCRIPT} (Redis restarted, failed over or ran {@code SCRIPT FLUSH}) the
 * same call is retried once with {@code EVAL}, which also caches the script again, so callers never see the error.
 */
@Singleton
public class PacerRedis {

    private static final Logger LOG = Logger.getLogger(PacerRedis.class);

    /** How often the slot map of a Redis Cluster is read again, whatever happens. */
    static final Duration CLUSTER_REFRESH_INTERVAL = Duration.ofSeconds(5);
    /** A node's answer with the slot map, at most; then the next node is asked. */
    static final Duration CLUSTER_REFRESH_BUDGET = Duration.ofSeconds(1);

    private final String clientName;
    private final RedisTransportConfig transport;
    private final Vertx vertx;
    private volatile Redis redis;
    /** Standalone and Sentinel: the one group of connections. */
    private volatile NodeConnections single;
    /** Redis Cluster: connections per master, routed by slot. */
    private volatile ClusterRouter cluster;
    private EventLoopGroup eventLoops;

    PacerRedis(PacerBuildTimeConfig config, PacerConfig runtimeConfig, Vertx vertx) {
        this.clientName = config.redisClientName().orElse(null);
        this.transport = runtimeConfig.redis();
        this.vertx = vertx;
    }

    /**
     * The bare Vert.x Redis client, resolved lazily so an application that never calls Pacer does not need Redis.
     * For connections of their own (pub/sub, see {@link #connectForSubscription()}); requests go through
     * {@link #send(Request)} and {@link #eval(LuaScript, List, List)}.
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

    /** Whether Pacer routes its requests by slot itself (the configured client is a Redis Cluster client). */
    public boolean routesBySlot() {
        chooseTransport();
        return cluster != null;
    }

    /**
     * Sends one keyless command ({@code PING}, {@code TIME}, {@code PUBLISH} ...) within the default time budget. On
     * Redis Cluster it goes to any reachable master (a keyed command still reaches its key's master, through a
     * {@code MOVED} redirection). The returned {@link Uni} is lazy: nothing is sent until subscription.
     */
    public Uni<Response> send(Request request) {
        return send(request, transport.timeout());
    }

    /**
     * Sends one keyless command like {@link #send(Request)}; it fails when Redis has not answered {@code budget} after
     * the command was written.
     */
    public Uni<Response> send(Request request, Duration budget) {
        return send(null, request, budget);
    }

    /**
     * The number of nodes a command whose answer is per node ({@code SCAN}) must visit: the masters of a Redis
     * Cluster (as last known), else 1. See {@link #sendToNode(int, Request)}.
     */
    public int nodes() {
        ClusterRouter router = router();
        SlotMap map = router == null ? null : router.map();
        return map == null ? 1 : Math.max(1, map.masters().size());
    }

    /**
     * Sends a keyless command to node {@code index} (of {@link #nodes()}, masters in slot order) within the default
     * time budget; with one node, or when the cluster has fewer masters by now, like {@link #send(Request)}.
     */
    public Uni<Response> sendToNode(int index, Request request) {
        ClusterRouter router = router();
        SlotMap map = router == null ? null : router.map();
        if (map == null || index >= map.masters().size()) {
            return send(request);
        }
        String master = map.masters().get(index);
        return submitted(request, transport.timeout(), pending -> router.node(master).connection().submit(pending));
    }

    /**
     * Sends a command whose effect is per node ({@code SCRIPT LOAD}) to every master on Redis Cluster, else once.
     * Emits every answer; fails with the first failure.
     */
    public Uni<List<Response>> sendToEveryMaster(Request request, Duration budget) {
        return Uni.createFrom().deferred(() -> {
            ClusterRouter router = router();
            return router == null ? send(request, budget).map(List::of)
                    : Uni.createFrom().completionStage(() -> router.submitToEveryMaster(request, budget.toNanos()));
        });
    }

    /**
     * Runs a script with {@code EVALSHA} within the default time budget, reloading it transparently on
     * {@code NOSCRIPT}. On Redis Cluster it goes to the master of the first key's slot (all keys of a Pacer script
     * share one hash tag).
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
        String routingKey = routingKey(keys);
        return send(routingKey, scriptRequest(Command.EVALSHA, script.sha1(), keys, args), budget)
                .onFailure(PacerRedis::isNoScript)
                .recoverWithUni(() -> send(routingKey, scriptRequest(Command.EVAL, script.source(), keys, args),
                        budget));
    }

    /**
     * Runs a script like {@link #eval(LuaScript, List, List, Duration)}, for a caller that blocks on the answer (never
     * an event-loop thread): the future is completed on Pacer's connection thread, without the Mutiny operators, and
     * the context propagation each of them carries, that a {@link Uni} chain costs per call.
     */
    public CompletableFuture<Response> evalFuture(LuaScript script, List<String> keys, List<String> args,
            Duration budget) {
        String routingKey = routingKey(keys);
        return sendFuture(routingKey, scriptRequest(Command.EVALSHA, script.sha1(), keys, args), budget)
                .exceptionallyCompose(failure -> isNoScript(failure)
                        ? sendFuture(routingKey, scriptRequest(Command.EVAL, script.source(), keys, args), budget)
                        : CompletableFuture.failedFuture(failure));
    }

    private CompletableFuture<Response> sendFuture(String routingKey, Request request, Duration budget) {
        CompletableFuture<Response> future = new CompletableFuture<>();
        submit(routingKey, new PendingRequest(request, budget.toNanos(), future::complete,
                future::completeExceptionally, null));
        return future;
    }

    /**
     * Runs a script, then {@code WAIT <replicas> <timeout>} right after it on the same connection, so the wait covers
     * the script's writes. Emits the script's response and the number of replicas that acknowledged them; when the
     * script ran but {@code WAIT} failed (the connection or the node was lost before it answered), emits the
     * response with no replica and the {@code WAIT}'s failure: the write is stored but not confirmed.
     * <p>
     * Both go over a connection of their own (on Redis Cluster: of the master of the first key's slot): {@code WAIT}
     * holds its connection until the replicas answer, which must never stall the decisions and queue operations
     * pipelined on Pacer's other connections.
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
        long budgetNanos = budget.toNanos();
        Request scriptRequest = scriptRequest(command, scriptOrSha, keys, args);
        Request waitRequest = Request.cmd(Command.WAIT).arg(replicas).arg(timeout.toMillis());
        return Uni.createFrom().emitter(emitter -> {
            Context caller = Context.isOnEventLoopThread() ? Vertx.currentContext() : null;
            // Both answers come on one thread (the caller's context or the connection's), the script's first.
            Response[] stored = new Response[1];
            PendingRequest written = new PendingRequest(scriptRequest, budgetNanos, response -> stored[0] = response,
                    emitter::fail, caller);
            PendingRequest wait = new PendingRequest(waitRequest, budgetNanos,
                    acknowledged -> emitter.complete(new ReplicatedResponse(stored[0], acknowledged.toInteger(), null)),
                    failure -> {
                        if (stored[0] != null) {
                            emitter.complete(new ReplicatedResponse(stored[0], 0, failure));
                        } else {
                            emitter.fail(failure);
                        }
                    }, caller);
            emitter.onTermination(() -> {
                written.cancel();
                wait.cancel();
            });
            ClusterRouter router = router();
            if (router != null) {
                router.submitDurable(routingKey(keys), written, wait);
            } else {
                PipelinedConnection connection = single.durable();
                connection.submit(written);
                connection.submit(wait);
            }
        });
    }

    /**
     * A script's response and how many replicas acknowledged its writes.
     *
     * @param waitFailure why {@code WAIT} did not answer after the script ran, or {@code null}
     */
    public record ReplicatedResponse(Response response, int replicas, Throwable waitFailure) {
    }

    /**
     * Opens a connection for pub/sub. On Redis Cluster it is a connection to one master, a different one on each call
     * (messages are broadcast to every node), so the loss of one node costs only a reconnect; else a connection of the
     * application's client, as before.
     */
    public Future<RedisConnection> connectForSubscription() {
        ClusterRouter router = router();
        if (router == null) {
            return client().connect();
        }
        SlotMap map = router.map();
        if (map == null || map.masters().isEmpty()) {
            router.topology().refresh();
            return Future.failedFuture(new RedisUnavailableException("the Redis Cluster slot map is not known yet"));
        }
        return connectToAnyMaster(router, map.masters().size());
    }

    /** Tries the masters in turn, so a dead one costs its connection attempt only. */
    private Future<RedisConnection> connectToAnyMaster(ClusterRouter router, int triesLeft) {
        String master = router.masterFor(-1);
        if (master == null) {
            return Future.failedFuture(new RedisUnavailableException("no Redis Cluster master is known"));
        }
        return router.node(master).client().connect().recover(failure -> {
            router.topology().refresh();
            return triesLeft > 1 ? connectToAnyMaster(router, triesLeft - 1) : Future.failedFuture(failure);
        });
    }

    private Uni<Response> send(String routingKey, Request request, Duration budget) {
        return submitted(request, budget, pending -> submit(routingKey, pending));
    }

    /** A lazy {@link Uni} of one request, handed to {@code submit} on subscription; answered on the caller's loop. */
    private static Uni<Response> submitted(Request request, Duration budget, Consumer<PendingRequest> submit) {
        long budgetNanos = budget.toNanos();
        return Uni.createFrom().emitter(emitter -> {
            Context caller = Context.isOnEventLoopThread() ? Vertx.currentContext() : null;
            PendingRequest pending = new PendingRequest(request, budgetNanos, emitter::complete, emitter::fail, caller);
            emitter.onTermination(pending::cancel);
            submit.accept(pending);
        });
    }

    private void submit(String routingKey, PendingRequest request) {
        ClusterRouter router = router();
        if (router != null) {
            router.submit(routingKey, request);
        } else {
            single.connection().submit(request);
        }
    }

    private static String routingKey(List<String> keys) {
        return keys.isEmpty() ? null : keys.get(0);
    }

    static boolean isNoScript(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("NOSCRIPT");
    }

    /** The cluster router, or {@code null} on Standalone and Sentinel (then {@link #single} is set). */
    private ClusterRouter router() {
        if (cluster == null && single == null) {
            chooseTransport();
        }
        return cluster;
    }

    private synchronized void chooseTransport() {
        if (cluster != null || single != null) {
            return;
        }
        RedisClientConfig config = PacerRedisClientFactory.config(clientName);
        List<String> seeds = config == null || config.clientType() != RedisClientType.CLUSTER ? List.of()
                : config.hosts().map(PacerRedis::endpoints).orElse(List.of());
        if (seeds.isEmpty()) {
            single = new NodeConnections(clientDisplayName(), () -> PacerRedisClientFactory.create(vertx, clientName),
                    this::client, this::newContext, transport.connections(), transport.maxInFlight(),
                    transport.maxQueued());
            return;
        }
        LOG.debugf("Pacer routes its requests by slot over Redis Cluster nodes %s", seeds);
        cluster = new ClusterRouter(vertx, seeds, endpoint -> new NodeConnections(endpoint,
                () -> PacerRedisClientFactory.createForNode(vertx, clientName, config, endpoint), this::client,
                this::newContext, transport.connections(), transport.maxInFlight(), transport.maxQueued()),
                CLUSTER_REFRESH_BUDGET, CLUSTER_REFRESH_INTERVAL);
    }

    private static List<String> endpoints(Set<URI> hosts) {
        List<String> endpoints = new ArrayList<>();
        for (URI host : hosts) {
            if (host.getHost() != null) {
                endpoints.add(SlotMap.endpoint(host.getHost(), host.getPort() < 0 ? 6379 : host.getPort(), null));
            }
        }
        return endpoints;
    }

    /** A new event-loop context on Pacer's own threads. */
    private synchronized ContextInternal newContext() {
        VertxInternal internal = (VertxInternal) vertx;
        if (eventLoops == null) {
            // Event-loop threads of Pacer's own, as Redis clients have: answers are read at once, never behind the
            // application's HTTP requests on a shared event loop.
            AtomicInteger threads = new AtomicInteger();
            eventLoops = internal.transport().eventLoopGroup(Transport.IO_EVENT_LOOP_GROUP,
                    Math.max(1, transport.connections()),
                    task -> new VertxThread(task, "pacer-redis-" + threads.getAndIncrement(), false, 2,
                            TimeUnit.SECONDS),
                    50);
        }
        return internal.createEventLoopContext(eventLoops.next(), internal.getWorkerPool(),
                PacerRedis.class.getClassLoader());
    }

    @PreDestroy
    void close() {
        ClusterRouter router = cluster;
        if (router != null) {
            router.close();
        }
        NodeConnections connections = single;
        if (connections != null) {
            connections.shutdown();
        }
        EventLoopGroup loops;
        synchronized (this) {
            loops = eventLoops;
        }
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
