package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.delay.HandlersByQueue;
import io.quarkiverse.pacer.runtime.delay.consumer.ConsumerSettings;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Queues that hold messages no {@code @Delayed} method of this application consumes, most often a typo in a queue
 * name: warns once per queue when this application schedules on one, and finds the others in Redis with a bounded,
 * incremental {@code SCAN} for the Dev UI and the {@code pacer.delayed.unconsumed} gauge.
 */
@Singleton
public class UnconsumedQueues {

    private static final Logger LOG = Logger.getLogger(UnconsumedQueues.class);

    /** Keys one {@code SCAN} call looks at: bounds the work of one call. */
    static final int SCAN_COUNT = 1000;

    /** A SCAN call that takes longer is abandoned, so a stalled call never stops later scans. */
    static final Duration SCAN_TIMEOUT = Duration.ofSeconds(5);

    private final PacerRedis redis;
    private final boolean consumerEnabled;
    private final boolean sharded;
    private final String keyStart;
    private final String pattern;
    /** The queues the consumers of this application read. */
    private final Set<String> known;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    /**
     * The SCAN in progress: the node it reads (on Redis Cluster, each master in turn), its cursor there and the queues
     * it found so far; guarded by {@code this}.
     */
    private int node;
    private String cursor = "0";
    private Set<String> pending = new TreeSet<>();
    private volatile Set<String> found = Set.of();
    private volatile boolean scanInProgress;

    UnconsumedQueues(PacerRedis redis, PacerConfig config, HandlersByQueue handlers) {
        this.redis = redis;
        this.known = new TreeSet<>();
        handlers.all().forEach(handler -> known.add(handler.queue()));
        this.consumerEnabled = ConsumerSettings.consumes(config.delayed());
        this.sharded = config.delayed().shards() > 1;
        this.keyStart = config.keyPrefix() + ":d:{";
        this.pattern = escapeGlob(keyStart) + "*";
    }

    /** The queues the {@code @Delayed} methods of this application consume, sorted. */
    public Set<String> knownQueues() {
        return new TreeSet<>(known);
    }

    /** Called after each successful schedule: warns once per queue that nothing in this application consumes. */
    void scheduledOn(String queue) {
        if (!consumerEnabled || known.contains(queue) || !warned.add(queue)) {
            return;
        }
        LOG.warnf("Scheduled a message on delay queue \"%s\", which no @Delayed method of this application consumes"
                + " (its queues: %s): the message waits until an application consumes \"%s\". Check the queue name;"
                + " if another application consumes this queue, ignore this warning", queue,
                known.isEmpty() ? "none" : String.join(", ", knownQueues()), queue);
    }

    /**
     * The queues with keys in Redis that no {@code @Delayed} method of this application consumes, as of the last
     * complete scan.
     */
    public Set<String> found() {
        return found;
    }

    /**
     * Advances the scan of the key space by at most {@code calls} {@code SCAN} calls; when a pass completes, its
     * queues become {@link #found()}. Concurrent callers skip instead of scanning twice.
     */
    public Uni<Set<String>> advance(int calls) {
        synchronized (this) {
            if (scanInProgress) {
                return Uni.createFrom().item(found);
            }
            scanInProgress = true;
        }
        return step(calls)
                .onFailure().invoke(failure -> LOG.debugf("Looking for unconsumed delay queues failed: %s", failure))
                .onFailure().recoverWithNull()
                .eventually(() -> scanInProgress = false)
                .replaceWith(() -> found);
    }

    private Uni<Void> step(int callsLeft) {
        String from;
        int on;
        synchronized (this) {
            from = cursor;
            on = node;
        }
        Request scan = Request.cmd(Command.SCAN).arg(from).arg("MATCH").arg(pattern).arg("COUNT").arg(SCAN_COUNT)
                .arg("TYPE").arg("zset");
        return redis.sendToNode(on, scan).ifNoItem().after(SCAN_TIMEOUT).fail().flatMap(response -> {
            boolean passDone = record(response);
            if (passDone || callsLeft <= 1) {
                return Uni.createFrom().voidItem();
            }
            return step(callsLeft - 1);
        });
    }

    private synchronized boolean record(Response response) {
        cursor = response.get(0).toString();
        for (Response key : response.get(1)) {
            String queue = queueOf(key.toString());
            if (queue != null && !known.contains(queue)) {
                pending.add(queue);
            }
        }
        if (!"0".equals(cursor)) {
            return false;
        }
        if (++node < redis.nodes()) {
            // This master is done; the pass goes on with the next one.
            return false;
        }
        node = 0;
        if (!pending.equals(found)) {
            LOG.debugf("Delay queues in Redis that no @Delayed method of this application consumes: %s", pending);
        }
        found = Set.copyOf(pending);
        pending = new TreeSet<>();
        return true;
    }

    /** The queue of a key {@code <prefix>:d:{<queue>[#<shard>]}:<due|inflight|dead>}, or {@code null}. */
    String queueOf(String key) {
        if (!key.startsWith(keyStart)) {
            return null;
        }
        int close = key.lastIndexOf("}:");
        if (close < keyStart.length()) {
            return null;
        }
        String suffix = key.substring(close + 2);
        if (!List.of("due", "inflight", "dead").contains(suffix)) {
            return null;
        }
        String queue = key.substring(keyStart.length(), close);
        int hash = queue.lastIndexOf('#');
        if (sharded && hash > 0 && queue.substring(hash + 1).chars().allMatch(Character::isDigit)) {
            queue = queue.substring(0, hash);
        }
        return queue.isEmpty() ? null : queue;
    }

    static String escapeGlob(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 4);
        for (char c : text.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }
}
