package io.quarkiverse.pacer.runtime.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.redis.client.Redis;

/**
 * Pacer's connections to one Redis endpoint: {@code quarkus.pacer.redis.connections} pipelined connections, used in
 * turn, plus one durable connection for writes followed by {@code WAIT} ({@link GroupCommit}), opened on first use. On a
 * standalone or
 * Sentinel Redis there is one such group; on Redis Cluster one per master.
 * <p>
 * The connections share a Vert.x client of Pacer's own when it can build one (else the application's shared client).
 * With that client of its own, a group may also hold a connection on each of the application's event loops that asked
 * ({@link CallerLoopConnections}), for the requests made there that may go on one.
 */
final class NodeConnections {

    private final String endpoint;
    private final Supplier<Redis> ownClientFactory;
    private final Supplier<Redis> sharedClient;
    private final Supplier<ContextInternal> contexts;
    private final int count;
    private final int maxInFlight;
    private final int maxQueued;
    private final long budgetNanos;
    private final AtomicInteger next = new AtomicInteger();
    private volatile PipelinedConnection[] connections;
    private volatile PipelinedConnection durable;
    private volatile GroupCommit groupCommit;
    private volatile Redis client;
    private volatile boolean ownsClient;
    /** Connections on the application's event loops, or {@code null} when requests never go on one. */
    private final CallerLoopConnections callerLoops;
    /** The clients of the connections on the application's event loops, closed at shutdown. */
    private final List<LoopClient> loopClients = new ArrayList<>();
    private volatile boolean shutDown;
    private volatile String shutDownReason = "Pacer is shutting down";

    /**
     * @param endpoint {@code host:port}, for messages (or the client's name when the client finds the endpoint)
     * @param ownClientFactory builds a client of Pacer's own, or returns {@code null} when it cannot
     * @param sharedClient the application's client, used when Pacer cannot build its own
     * @param contexts a new event-loop context on Pacer's threads per call
     * @param budgetNanos the time budget of Pacer's own requests to the node (the replica check)
     * @param callerLoopsOf the application's Vert.x when requests made on its event loops may go on connections of
     *        their loops, else {@code null}
     */
    NodeConnections(String endpoint, Supplier<Redis> ownClientFactory, Supplier<Redis> sharedClient,
            Supplier<ContextInternal> contexts, int count, int maxInFlight, int maxQueued, long budgetNanos,
            Vertx callerLoopsOf) {
        this.endpoint = endpoint;
        this.ownClientFactory = ownClientFactory;
        this.sharedClient = sharedClient;
        this.contexts = contexts;
        this.count = Math.max(1, count);
        this.maxInFlight = Math.max(1, maxInFlight);
        this.maxQueued = Math.max(1, maxQueued);
        this.budgetNanos = budgetNanos;
        this.callerLoops = callerLoopsOf == null ? null
                : new CallerLoopConnections(callerLoopsOf, this::newLoopConnection);
    }

    String endpoint() {
        return endpoint;
    }

    /** One of the pipelined connections, in turn. */
    PipelinedConnection connection() {
        PipelinedConnection[] current = connections;
        if (current == null) {
            current = open();
        }
        return current.length == 1 ? current[0] : current[Math.floorMod(next.getAndIncrement(), current.length)];
    }

    /**
     * The connection for {@code request}: the one on the caller's event loop when the request may go there, the caller
     * is on one of the application's event loops and Pacer has a client of its own (the application's pool is never
     * drawn on for it); else one of the pipelined connections, in turn.
     */
    PipelinedConnection connection(PendingRequest request) {
        CallerLoopConnections loops = callerLoops;
        Context caller = request.callerLoop();
        // Once shut down, requests go to the connections below, which fail them with the reason.
        if (loops != null && caller != null && ownsClient && !shutDown) {
            PipelinedConnection onLoop = loops.of(caller);
            if (onLoop != null) {
                return onLoop;
            }
        }
        return connection();
    }

    /**
     * The connection for writes followed by {@code WAIT}: {@code WAIT} holds its connection until the replicas answer,
     * which must never stall the requests pipelined on the others.
     */
    PipelinedConnection durable() {
        PipelinedConnection current = durable;
        if (current == null) {
            synchronized (this) {
                current = durable;
                if (current == null) {
                    current = newConnection();
                    durable = current;
                }
            }
        }
        return current;
    }

    /** The durable writes of this node: scripts whose {@code WAIT}s are shared, on the durable connection. */
    GroupCommit groupCommit() {
        GroupCommit current = groupCommit;
        if (current == null) {
            PipelinedConnection onDurable = durable();
            synchronized (this) {
                current = groupCommit;
                if (current == null) {
                    current = new GroupCommit(endpoint, onDurable,
                            new ReplicaCheck(endpoint, connection(), onDurable, budgetNanos));
                    groupCommit = current;
                }
            }
        }
        return current;
    }

    /** Whether durable writes to this node are known to fail at once: it has no connected replica. */
    boolean knownWithoutReplica() {
        GroupCommit current = groupCommit;
        return current != null && current.knownWithoutReplica();
    }

    /** The client the connections are opened with, for connections of other kinds (pub/sub). */
    Redis client() {
        Redis current = client;
        if (current == null) {
            synchronized (this) {
                current = client;
                if (current == null) {
                    current = ownClientFactory.get();
                    ownsClient = current != null;
                    if (current == null) {
                        current = sharedClient.get();
                    }
                    client = current;
                }
            }
        }
        return current;
    }

    private synchronized PipelinedConnection[] open() {
        PipelinedConnection[] current = connections;
        if (current == null) {
            current = new PipelinedConnection[count];
            for (int i = 0; i < count; i++) {
                current[i] = newConnection();
            }
            connections = current;
        }
        return current;
    }

    private PipelinedConnection newConnection() {
        // A context per connection: its state lives on one event-loop thread, without locks.
        return newConnection(contexts.get(), this::client, this::discardClient);
    }

    /** A connection on an application event loop, with a client of its own ({@link LoopClient}). */
    private PipelinedConnection newLoopConnection(ContextInternal context) {
        LoopClient own = new LoopClient(ownClientFactory);
        synchronized (this) {
            loopClients.add(own);
        }
        PipelinedConnection created = newConnection(context, own::get, own::discard);
        if (shutDown) {
            own.close();
        }
        return created;
    }

    private PipelinedConnection newConnection(ContextInternal context, Supplier<Redis> client, Runnable onStall) {
        PipelinedConnection created = new PipelinedConnection(context, client, onStall, maxInFlight, maxQueued);
        if (shutDown) {
            // Asked for after shutdown (a master just left the cluster's map): fails its requests, opens nothing.
            created.shutdown(shutDownReason);
        }
        return created;
    }

    /**
     * After a stalled connection: closes Pacer's own client, which closes its pooled sockets for real (a connection
     * closed by its user goes back to the pool, dead or not), so the next connection is a new socket. The application's
     * shared client, when Pacer has to use it, is left alone.
     */
    private synchronized void discardClient() {
        Redis current = client;
        if (current != null && ownsClient) {
            client = null;
            ownsClient = false;
            current.close();
        }
    }

    /** Closes every connection for good; requests still waiting fail. */
    void shutdown() {
        shutdown("Pacer is shutting down");
    }

    /** Closes every connection for good; requests still waiting, or sent later, fail with {@code reason}. */
    void shutdown(String reason) {
        shutDownReason = reason;
        shutDown = true;
        PipelinedConnection current = durable;
        if (current != null) {
            current.shutdown(reason);
        }
        PipelinedConnection[] all = connections;
        if (all != null) {
            for (PipelinedConnection connection : all) {
                connection.shutdown(reason);
            }
        }
        if (callerLoops != null) {
            callerLoops.all().forEach(connection -> connection.shutdown(reason));
        }
        synchronized (this) {
            Redis own = client;
            if (own != null && ownsClient) {
                client = null;
                own.close();
            }
            loopClients.forEach(LoopClient::close);
        }
    }
}
