package io.quarkiverse.pacer.runtime.redis;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.quarkiverse.pacer.runtime.config.RedisTransportConfig;
import io.quarkus.redis.runtime.client.config.RedisClientConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Pacer's connections to Redis and where each request goes: on Standalone and Sentinel one group of connections
 * ({@link NodeConnections}); on Redis Cluster ({@code quarkus.redis.client-type=cluster}) the {@link ClusterRouter},
 * with connections per master. Chosen on first use from the Quarkus Redis client's configuration; all of them live on
 * event-loop threads of Pacer's own ({@link PacerEventLoops}): on Redis Cluster each master's on threads of its own, and
 * the slot map is read and applied on a thread of its own, so no master's calls wait behind another's work. On
 * Standalone and Sentinel, a throttling decision requested on one of the application's event loops goes on a connection
 * on that event loop ({@link CallerLoopConnections}), answered on the caller's thread; on Redis Cluster it goes like the
 * others (a connection per master and event loop would multiply the connections by the masters).
 */
final class PacerConnections {

    private static final Logger LOG = Logger.getLogger(PacerConnections.class);
    /**
     * Pacer's pub/sub connections at most: throttle resets, limit overrides, delay-queue wake-ups, recurring-schedule
     * wake-ups.
     */
    private static final int PUB_SUB_CONNECTIONS = 4;

    /** How often the slot map of a Redis Cluster is read again, whatever happens. */
    static final Duration CLUSTER_REFRESH_INTERVAL = Duration.ofSeconds(5);
    /** A node's answer with the slot map, at most; then the next node is asked. */
    static final Duration CLUSTER_REFRESH_BUDGET = Duration.ofSeconds(1);

    private final String clientName;
    private final String displayName;
    private final RedisTransportConfig transport;
    private final Vertx vertx;
    private final Supplier<Redis> sharedClient;
    /** Standalone and Sentinel: the one group of connections. */
    private volatile NodeConnections single;
    /** Redis Cluster: connections per master, routed by slot. */
    private volatile ClusterRouter cluster;
    /** Standalone and Sentinel: the threads of the one group of connections. */
    private final PacerEventLoops eventLoops;
    /** Redis Cluster: each node's threads, kept while the application runs (a node that leaves often comes back). */
    private final Map<String, PacerEventLoops> nodeEventLoops = new ConcurrentHashMap<>();
    /** Redis Cluster: the thread that reads the slot map and routes what waited for it. */
    private final PacerEventLoops topologyEventLoop;

    /**
     * @param clientName the Quarkus Redis client's name, {@code null} for the default one
     * @param sharedClient the application's client, for when Pacer cannot build its own
     */
    PacerConnections(String clientName, String displayName, RedisTransportConfig transport, Vertx vertx,
            Supplier<Redis> sharedClient) {
        this.clientName = clientName;
        this.displayName = displayName;
        this.transport = transport;
        this.vertx = vertx;
        this.sharedClient = sharedClient;
        this.eventLoops = new PacerEventLoops(vertx, "pacer-redis-", transport.connections());
        this.topologyEventLoop = new PacerEventLoops(vertx, "pacer-redis-topology-", 1);
    }

    boolean routesBySlot() {
        return router() != null;
    }

    /** Sends {@code request} to the master of {@code routingKey}'s slot ({@code null}: keyless) or the one Redis. */
    void submit(String routingKey, PendingRequest request) {
        ClusterRouter router = router();
        if (router != null) {
            router.submit(routingKey, request);
        } else {
            single.connection(request).submit(request);
        }
    }

    /**
     * Sends a script, then {@code WAIT replicas timeoutMillis} covering it (shared with the other durable writes of its
     * master, {@link GroupCommit}), on a connection kept for such writes; {@code wait} gets the {@code WAIT}'s reply.
     */
    void submitDurable(String routingKey, PendingRequest script, PendingRequest wait, int replicas, long timeoutMillis) {
        ClusterRouter router = router();
        if (router != null) {
            router.submitDurable(routingKey, script, wait, replicas, timeoutMillis);
        } else {
            single.groupCommit().submit(script, wait, replicas, timeoutMillis);
        }
    }

    /** Whether durable writes for {@code routingKey} are known to fail at once: its master has no connected replica. */
    boolean knownWithoutReplica(String routingKey) {
        ClusterRouter router = router();
        return router != null ? router.knownWithoutReplica(routingKey) : single.knownWithoutReplica();
    }

    /** The number of nodes a per-node command visits: the known masters of a cluster, else 1. */
    int nodes() {
        SlotMap map = map();
        return map == null ? 1 : Math.max(1, map.masters().size());
    }

    /** Sends a keyless request to master {@code index} (slot order); elsewhere, or out of range, keyless. */
    void submitToNode(int index, PendingRequest request) {
        SlotMap map = map();
        if (map == null || index >= map.masters().size()) {
            submit(null, request);
        } else {
            cluster.node(map.masters().get(index)).connection().submit(request);
        }
    }

    /** Sends a request whose effect is per node to every master, or once; completes with every answer. */
    CompletionStage<List<Response>> submitToEveryMaster(Request request, long budgetNanos) {
        ClusterRouter router = router();
        if (router != null) {
            return router.submitToEveryMaster(request, budgetNanos);
        }
        CompletableFuture<Response> answer = new CompletableFuture<>();
        submit(null, new PendingRequest(request, budgetNanos, answer::complete, answer::completeExceptionally, null));
        return answer.thenApply(List::of);
    }

    /**
     * Opens a connection for pub/sub, from Pacer's own client (never one of the application's pooled connections). On
     * Redis Cluster it is a connection to one master, trying the masters in turn (messages are broadcast to every
     * node), so the loss of one node costs only a reconnect.
     */
    Future<RedisConnection> connectForSubscription() {
        ClusterRouter router = router();
        if (router == null) {
            return single.client().connect();
        }
        SlotMap map = router.map();
        if (map == null || map.masters().isEmpty()) {
            router.topology().refresh();
            return Future.failedFuture(new RedisUnavailableException("the Redis Cluster slot map is not known yet"));
        }
        return connectToAnyMaster(router, map.masters().size());
    }

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

    private SlotMap map() {
        ClusterRouter router = router();
        return router == null ? null : router.map();
    }

    /** The cluster router, or {@code null} on Standalone and Sentinel (then {@link #single} is set). */
    private ClusterRouter router() {
        if (cluster == null && single == null) {
            choose();
        }
        return cluster;
    }

    private synchronized void choose() {
        if (cluster != null || single != null) {
            return;
        }
        RedisClientConfig config = PacerRedisClientFactory.config(clientName);
        List<String> seeds = config == null || config.clientType() != RedisClientType.CLUSTER ? List.of()
                : config.hosts().map(PacerConnections::endpoints).orElse(List.of());
        if (seeds.isEmpty()) {
            boolean onCallerLoops = transport.eventLoopConnections();
            single = new NodeConnections(displayName, () -> PacerRedisClientFactory.create(vertx, clientName, poolSize()),
                    sharedClient, eventLoops::newContext, transport.connections(), transport.maxInFlight(),
                    transport.maxQueued(), transport.timeout().toNanos(), onCallerLoops ? vertx : null);
            return;
        }
        LOG.debugf("Pacer routes its requests by slot over Redis Cluster nodes %s", seeds);
        cluster = new ClusterRouter(vertx, seeds, endpoint -> new NodeConnections(endpoint,
                () -> PacerRedisClientFactory.createForNode(vertx, clientName, config, endpoint, poolSize()), sharedClient,
                nodeEventLoops(endpoint)::newContext, transport.connections(), transport.maxInFlight(),
                transport.maxQueued(), transport.timeout().toNanos(), null), topologyEventLoop.executor(),
                CLUSTER_REFRESH_BUDGET,
                CLUSTER_REFRESH_INTERVAL);
    }

    /**
     * The connections Pacer opens with one of its clients at most: the pipelined ones, the durable one and its pub/sub
     * connections (throttle resets, limit overrides, delay-queue and recurring-schedule wake-ups).
     */
    private int poolSize() {
        return Math.max(1, transport.connections()) + 1 + PUB_SUB_CONNECTIONS;
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

    /**
     * The threads of one master's connections: whatever one master's connections do (a reconnect, a burst of
     * redirected calls after a promotion, a new client) never delays reading another master's answers.
     */
    private PacerEventLoops nodeEventLoops(String endpoint) {
        return nodeEventLoops.computeIfAbsent(endpoint,
                node -> new PacerEventLoops(vertx, "pacer-redis-" + SlotMap.portOf(node) + "-", transport.connections()));
    }

    void close() {
        ClusterRouter router = cluster;
        if (router != null) {
            router.close();
        }
        NodeConnections connections = single;
        if (connections != null) {
            connections.shutdown();
        }
        eventLoops.close();
        nodeEventLoops.values().forEach(PacerEventLoops::close);
        topologyEventLoop.close();
    }
}
