package io.quarkiverse.pacer.runtime.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.types.ErrorType;

/**
 * Sends Pacer's requests to the master of their key's slot on Redis Cluster, over that master's own connections
 * ({@link NodeConnections}), so a dead or slow master only affects the requests of its slots.
 * <p>
 * {@code MOVED} updates the slot map and resends to the new owner; {@code ASK} sends {@code ASKING} and the request to
 * the target node, on one connection. {@code TRYAGAIN}, {@code CLUSTERDOWN} and a master that cannot be reached (the
 * request was never written) are retried after a map refresh within the request's time budget, so a promoted replica
 * takes over by itself. A request that was written and then lost is not retried: Redis may have run it.
 */
final class ClusterRouter {

    /** Redirections followed per request, at most (a slot migrating twice meanwhile, say). */
    static final int MAX_REDIRECTS = 5;
    static final long FIRST_RETRY_MILLIS = 20;
    static final long MAX_RETRY_MILLIS = 500;

    private final Vertx vertx;
    private final Function<String, NodeConnections> nodeFactory;
    private final Map<String, NodeConnections> nodes = new ConcurrentHashMap<>();
    private final ClusterTopology topology;
    private final AtomicInteger nextKeyless = new AtomicInteger();
    private final long periodicRefresh;
    private volatile boolean closed;

    /**
     * @param seeds the configured nodes, {@code host:port}
     * @param nodeFactory opens the connections to one node
     * @param topologyExecutor the thread the slot map is read and applied on, never one serving a master's calls
     * @param refreshBudget the time budget of a node's answer with the slot map
     * @param refreshInterval how often the slot map is read again, failures or not
     */
    ClusterRouter(Vertx vertx, List<String> seeds, Function<String, NodeConnections> nodeFactory,
            Executor topologyExecutor, Duration refreshBudget, Duration refreshInterval) {
        this.vertx = vertx;
        this.nodeFactory = nodeFactory;
        this.topology = new ClusterTopology(seeds, this::node, refreshBudget.toNanos(), this::closeNodesGone,
                topologyExecutor);
        this.periodicRefresh = vertx.setPeriodic(refreshInterval.toMillis(), ignored -> topology.refresh());
    }

    /** The current slot map, {@code null} before it was first read. */
    SlotMap map() {
        return topology.map();
    }

    /**
     * Sends {@code request} to the master of {@code routingKey}'s slot ({@code null}: any master).
     */
    void submit(String routingKey, PendingRequest request) {
        new RoutedRequest(this, routingKey == null ? -1 : ClusterSlots.slot(routingKey), request, false, null, 0, 0)
                .send();
    }

    /**
     * Sends {@code script} and then a {@code WAIT} covering it ({@link GroupCommit}) on the durable connection of the
     * master of {@code routingKey}'s slot; redirections and retries move both.
     */
    void submitDurable(String routingKey, PendingRequest script, PendingRequest wait, int replicas,
            long timeoutMillis) {
        new RoutedRequest(this, ClusterSlots.slot(routingKey), script, true, wait, replicas, timeoutMillis).send();
    }

    /**
     * Sends {@code request} to every master of the current slot map (read first when unknown), for commands whose
     * effect is per node ({@code SCRIPT LOAD}); completes with their answers, or fails with the first failure.
     */
    CompletableFuture<List<Response>> submitToEveryMaster(Request request, long budgetNanos) {
        SlotMap known = topology.map();
        CompletionStage<SlotMap> map = known != null ? CompletableFuture.completedFuture(known) : topology.refresh();
        return map.thenCompose(current -> {
            List<CompletableFuture<Response>> answers = new ArrayList<>();
            for (String master : current.masters()) {
                CompletableFuture<Response> answer = new CompletableFuture<>();
                node(master).connection().submit(new PendingRequest(request, budgetNanos, answer::complete,
                        answer::completeExceptionally, null));
                answers.add(answer);
            }
            return CompletableFuture.allOf(answers.toArray(new CompletableFuture<?>[0]))
                    .thenApply(ignored -> answers.stream().map(CompletableFuture::join).toList());
        }).toCompletableFuture();
    }

    /** Whether the master of {@code routingKey}'s slot is known to have no connected replica. */
    boolean knownWithoutReplica(String routingKey) {
        String master = masterFor(ClusterSlots.slot(routingKey));
        NodeConnections node = master == null ? null : nodes.get(master);
        return node != null && node.knownWithoutReplica();
    }

    NodeConnections node(String endpoint) {
        return nodes.computeIfAbsent(endpoint, nodeFactory);
    }

    ClusterTopology topology() {
        return topology;
    }

    /** The master to send to: the slot's owner, or for a keyless request the masters in turn. */
    String masterFor(int slot) {
        SlotMap map = topology.map();
        if (map == null) {
            return null;
        }
        if (slot >= 0) {
            return map.masterOf(slot);
        }
        List<String> masters = map.masters();
        return masters.isEmpty() ? null : masters.get(Math.floorMod(nextKeyless.getAndIncrement(), masters.size()));
    }

    void retryLater(long delayMillis, Runnable retry) {
        if (closed) {
            retry.run();
            return;
        }
        vertx.setTimer(Math.max(1, delayMillis), ignored -> retry.run());
    }

    boolean isClosed() {
        return closed;
    }

    private void closeNodesGone(SlotMap map) {
        for (String endpoint : nodes.keySet()) {
            if (!map.masters().contains(endpoint)) {
                NodeConnections gone = nodes.remove(endpoint);
                if (gone != null) {
                    // Its unwritten requests are retried on the slots' new owners (never written: safe to resend).
                    gone.shutdown("Redis Cluster node " + endpoint + " is no longer a master in the cluster's slot map");
                }
            }
        }
    }

    void close() {
        closed = true;
        vertx.cancelTimer(periodicRefresh);
        nodes.values().forEach(NodeConnections::shutdown);
        nodes.clear();
    }

    /** One caller's request on its way: its attempts, redirections and retries. */
    private static final class RoutedRequest {

        private final ClusterRouter router;
        private final int slot;
        private final PendingRequest caller;
        private final boolean durable;
        /** The {@code WAIT} behind a durable write, else {@code null}. */
        private final PendingRequest callerWait;
        private final int replicas;
        private final long waitTimeoutMillis;
        private int redirects;
        private int attempts;
        private long retryMillis = FIRST_RETRY_MILLIS;

        RoutedRequest(ClusterRouter router, int slot, PendingRequest caller, boolean durable, PendingRequest wait,
                int replicas, long waitTimeoutMillis) {
            this.router = router;
            this.slot = slot;
            this.caller = caller;
            this.durable = durable;
            this.callerWait = wait;
            this.replicas = replicas;
            this.waitTimeoutMillis = waitTimeoutMillis;
        }

        void send() {
            if (caller.isDone()) {
                return;
            }
            if (router.isClosed()) {
                failAll(new RedisUnavailableException("Pacer is shutting down"));
                return;
            }
            String master = router.masterFor(slot);
            if (master == null) {
                // No map yet, or a slot no master serves (a failover under way): read the map, then route.
                router.topology().refresh().whenComplete((map, failure) -> {
                    String now = router.masterFor(slot);
                    if (now != null) {
                        sendTo(now, false);
                    } else {
                        retry(failure != null ? failure
                                : new RedisUnavailableException("no Redis Cluster master serves slot " + slot));
                    }
                });
                return;
            }
            sendTo(master, false);
        }

        private void sendTo(String endpoint, boolean asking) {
            NodeConnections node = router.node(endpoint);
            PipelinedConnection connection = durable ? node.durable() : node.connection();
            long budget = budgetNanos();
            attempts++;
            if (asking) {
                connection.submit(new PendingRequest(Request.cmd(Command.ASKING), budget, ignored -> {
                }, ignored -> {
                }, null));
            }
            PendingRequest[] attempt = new PendingRequest[1];
            boolean[] scriptRan = new boolean[1];
            attempt[0] = new PendingRequest(caller.request(), budget, response -> {
                scriptRan[0] = true;
                caller.complete(response);
            }, failure -> failed(endpoint, attempt[0], failure), null);
            if (!asking) {
                // After ASKING the request must follow it at once: it is never held for a batch. A durable write is
                // batched by its group commit only, before the WAIT that covers it.
                attempt[0].batchable(caller.batchable());
            }
            if (callerWait == null) {
                connection.submit(attempt[0]);
                return;
            }
            // Answered after the script on the same connection: it counts only behind a script that succeeded
            // (after a redirection the script and its WAIT go again, to the new owner). It is sent itself only behind
            // ASKING; otherwise the group commit's WAIT answers it.
            PendingRequest attemptWait = new PendingRequest(
                    asking ? Request.cmd(Command.WAIT).arg(replicas).arg(waitTimeoutMillis) : null, budget, response -> {
                        if (scriptRan[0]) {
                            callerWait.complete(response);
                        }
                    }, failure -> {
                        if (scriptRan[0]) {
                            callerWait.fail(failure);
                        }
                    }, null);
            if (asking) {
                // ASKING applies to the next command only: this script and a WAIT of its own, right behind it.
                connection.submit(attempt[0]);
                connection.submit(attemptWait);
            } else {
                node.groupCommit().submit(attempt[0], attemptWait, replicas, waitTimeoutMillis);
            }
        }

        /** The first attempt has the caller's whole budget; a later one what is left of it. */
        private long budgetNanos() {
            if (attempts == 0) {
                return caller.budgetNanos();
            }
            long left = caller.budgetNanos() - (System.nanoTime() - caller.submittedNanos());
            return Math.max(TimeUnit.MILLISECONDS.toNanos(1), left);
        }

        private void failed(String endpoint, PendingRequest attempt, Throwable failure) {
            String message = failure instanceof ErrorType ? failure.getMessage() : null;
            if (message != null && (message.startsWith("MOVED ") || message.startsWith("ASK "))
                    && redirects < MAX_REDIRECTS) {
                redirects++;
                // "MOVED <slot> <host>:<port>"; an empty host is the host of the node that answered.
                String[] parts = message.split(" ");
                String target = parts[2].startsWith(":") ? SlotMap.hostOf(endpoint) + parts[2] : parts[2];
                boolean moved = message.startsWith("MOVED ");
                if (moved) {
                    router.topology().moved(Integer.parseInt(parts[1]), target);
                }
                sendTo(target, !moved);
                return;
            }
            boolean clusterBusy = message != null && (message.startsWith("TRYAGAIN") || message.startsWith("CLUSTERDOWN"));
            boolean neverWritten = failure instanceof RedisUnavailableException && !attempt.isWritten();
            if (clusterBusy || neverWritten) {
                router.topology().refresh();
                retry(failure);
                return;
            }
            failAll(failure);
        }

        private void retry(Throwable failure) {
            long left = caller.budgetNanos() - (System.nanoTime() - caller.submittedNanos());
            long delay = Math.min(retryMillis, TimeUnit.NANOSECONDS.toMillis(left));
            if (left <= 0 || delay <= 0 || router.isClosed()) {
                failAll(failure);
                return;
            }
            retryMillis = Math.min(MAX_RETRY_MILLIS, retryMillis * 2);
            router.retryLater(delay, this::send);
        }

        private void failAll(Throwable failure) {
            caller.fail(failure);
            if (callerWait != null) {
                callerWait.fail(failure);
            }
        }
    }
}
