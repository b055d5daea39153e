package io.quarkiverse.pacer.runtime.redis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.delay.RedisUnavailableException;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Pacer's view of a Redis Cluster's slot map. It is read from any reachable node (known masters first, then the
 * configured seeds) with {@code CLUSTER SHARDS}, or {@code CLUSTER SLOTS} on Redis 6.2; it is refreshed periodically,
 * after a failure and after a {@code MOVED} redirection, never twice at once and at most once every
 * {@link #MIN_REFRESH_GAP_NANOS}, so a promoted replica, an added master or a moved slot is picked up by itself.
 * Answers are parsed and the map applied on a thread of its own: the callers that waited for the map, the closing of
 * masters gone and the opening of new ones never run on a thread that reads another master's answers.
 */
final class ClusterTopology {

    private static final Logger LOG = Logger.getLogger(ClusterTopology.class);

    /** Between two refreshes at least this long: a burst of failures on one dead master costs one refresh. */
    static final long MIN_REFRESH_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final List<String> seeds;
    private final Function<String, NodeConnections> nodes;
    private final long budgetNanos;
    private final Consumer<SlotMap> onRefreshed;
    private final Executor executor;
    private final AtomicInteger start = new AtomicInteger();
    private volatile SlotMap map;
    private volatile boolean shardsUnknown;
    private CompletableFuture<SlotMap> refreshing;
    private long lastRefreshNanos = System.nanoTime() - MIN_REFRESH_GAP_NANOS;

    /**
     * @param seeds the configured nodes ({@code host:port}), asked when no known master answers
     * @param nodes the connections to a node, opened on demand
     * @param budgetNanos the time budget of one node's answer
     * @param onRefreshed told of each map read from the cluster (to close the connections of masters gone)
     * @param executor where answers are parsed, the map applied and the callers waiting for it resumed: a thread of
     *        its own, so a refresh never runs on, nor waits behind, the thread of a master's calls
     */
    ClusterTopology(List<String> seeds, Function<String, NodeConnections> nodes, long budgetNanos,
            Consumer<SlotMap> onRefreshed, Executor executor) {
        this.seeds = List.copyOf(seeds);
        this.nodes = nodes;
        this.budgetNanos = budgetNanos;
        this.onRefreshed = onRefreshed;
        this.executor = executor;
    }

    /** The current map, or {@code null} before the first successful refresh. */
    SlotMap map() {
        return map;
    }

    /** Follows a {@code MOVED} redirection at once, and refreshes the whole map in the background. */
    void moved(int slot, String master) {
        synchronized (this) {
            SlotMap current = map;
            if (current != null) {
                map = current.withSlot(slot, master);
            }
        }
        refresh();
    }

    /**
     * Refreshes the map unless a refresh is under way (then its result is shared) or the last one was less than
     * {@link #MIN_REFRESH_GAP_NANOS} ago (then the current map is the answer). Completes with the map, or fails when
     * no node answered.
     */
    CompletionStage<SlotMap> refresh() {
        CompletableFuture<SlotMap> result;
        synchronized (this) {
            if (refreshing != null) {
                return refreshing;
            }
            SlotMap current = map;
            if (current != null && System.nanoTime() - lastRefreshNanos < MIN_REFRESH_GAP_NANOS) {
                return CompletableFuture.completedFuture(current);
            }
            result = new CompletableFuture<>();
            refreshing = result;
            lastRefreshNanos = System.nanoTime();
        }
        ask(candidates(), 0, null, result);
        return result;
    }

    private List<String> candidates() {
        Set<String> ordered = new LinkedHashSet<>();
        SlotMap current = map;
        if (current != null) {
            // Known masters in turn from a rotating start, so one slow master does not delay every refresh.
            List<String> masters = current.masters();
            int first = Math.floorMod(start.getAndIncrement(), Math.max(1, masters.size()));
            for (int i = 0; i < masters.size(); i++) {
                ordered.add(masters.get((first + i) % masters.size()));
            }
        }
        ordered.addAll(seeds);
        return new ArrayList<>(ordered);
    }

    private void ask(List<String> candidates, int index, Throwable lastFailure, CompletableFuture<SlotMap> result) {
        if (index >= candidates.size()) {
            finish(null, lastFailure == null ? new RedisUnavailableException("no Redis Cluster node is known")
                    : new RedisUnavailableException("no Redis Cluster node answered CLUSTER SHARDS/SLOTS; last: "
                            + lastFailure.getMessage(), lastFailure),
                    result);
            return;
        }
        String endpoint = candidates.get(index);
        query(endpoint, !shardsUnknown).whenComplete((parsed, failure) -> {
            if (failure == null) {
                finish(parsed, null, result);
            } else {
                LOG.debugf("Redis Cluster node %s did not give the slot map: %s", endpoint, failure);
                ask(candidates, index + 1, failure, result);
            }
        });
    }

    private CompletionStage<SlotMap> query(String endpoint, boolean shards) {
        Request request = Request.cmd(Command.CLUSTER).arg(shards ? "SHARDS" : "SLOTS");
        CompletableFuture<Response> answer = new CompletableFuture<>();
        nodes.apply(endpoint).connection().submit(new PendingRequest(request, budgetNanos, answer::complete,
                answer::completeExceptionally, null));
        String host = SlotMap.hostOf(endpoint);
        return answer.handleAsync((response, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(shards ? SlotMap.fromShards(response, host)
                        : SlotMap.fromSlots(response, host));
            }
            String message = failure.getMessage();
            if (shards && message != null && message.startsWith("ERR") && message.toLowerCase().contains("shards")) {
                // Redis 6.2 has no CLUSTER SHARDS.
                shardsUnknown = true;
                return query(endpoint, false);
            }
            return CompletableFuture.<SlotMap> failedFuture(failure);
        }, executor).thenCompose(Function.identity());
    }

    private void finish(SlotMap parsed, Throwable failure, CompletableFuture<SlotMap> result) {
        synchronized (this) {
            refreshing = null;
            if (parsed != null) {
                SlotMap previous = map;
                map = parsed;
                if (previous == null || !previous.masters().equals(parsed.masters())) {
                    LOG.debugf("Redis Cluster slot map: %s", parsed);
                }
            }
        }
        if (parsed != null) {
            onRefreshed.accept(parsed);
            result.complete(parsed);
        } else {
            result.completeExceptionally(failure);
        }
    }
}
