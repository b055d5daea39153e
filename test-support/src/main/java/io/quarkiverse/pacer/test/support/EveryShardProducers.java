package io.quarkiverse.pacer.test.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Producers that schedule with ids on every shard of a sharded queue in turn, {@value #PAUSE_MILLIS} ms apart, as
 * producers of random ids do, while one master of a Redis Cluster (the promoted one) has no replica and
 * {@code durability=replicas}: every call is recorded with when it started, how long the {@code schedule} took, whether
 * its shard lives on that master and how it ended, so a test states the latency of the healthy shards' calls and of the
 * refusals in a window of time, and checks that every acknowledged message was delivered.
 */
public final class EveryShardProducers {

    static final long PAUSE_MILLIS = 2;

    /** How one {@code schedule} ended and how long it took; {@code refused}: not stored, the master has no replica. */
    public record Outcome(long tookMicros, String failure, boolean refused) {

        public static Outcome acknowledged(long tookMicros) {
            return new Outcome(tookMicros, null, false);
        }

        public boolean failed() {
            return failure != null;
        }
    }

    /** One call: message id, start (epoch ms), whether its shard lives on the promoted master, outcome. */
    public record Call(String id, long startedAt, boolean onPromoted, Outcome outcome) {
    }

    /** One {@code schedule} of message {@code id} by producer {@code producer}. */
    @FunctionalInterface
    public interface Schedule {
        Outcome schedule(int producer, String id);
    }

    private final int shards;
    private final Set<Integer> promotedShards;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final Queue<Call> calls = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicBoolean refusedSeen = new AtomicBoolean();

    /** {@code promotedShards}: the shards whose master is the one that will be left without a replica. */
    public EveryShardProducers(int shards, Set<Integer> promotedShards) {
        this.shards = shards;
        this.promotedShards = promotedShards;
    }

    /** Starts {@code producers} threads, each scheduling on shard 0, 1, 2, ... in turn (offset by its number). */
    public void start(int producers, Schedule schedule) {
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread thread = new Thread(() -> {
                AtomicInteger ids = new AtomicInteger();
                for (int n = 0; running.get(); n++) {
                    int shard = Math.floorMod(n + producer, shards);
                    String id = "d" + producer + "-" + ids.getAndIncrement();
                    while (ClusterLoad.shardOf(id, shards) != shard) {
                        id = "d" + producer + "-" + ids.getAndIncrement();
                    }
                    long startedAt = System.currentTimeMillis();
                    Outcome outcome = schedule.schedule(producer, id);
                    if (!outcome.failed()) {
                        acknowledged.put(id, startedAt);
                    } else if (outcome.refused()) {
                        refusedSeen.set(true);
                    }
                    calls.add(new Call(id, startedAt, promotedShards.contains(shard), outcome));
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS));
                }
            }, "producer-" + p);
            thread.start();
            threads.add(thread);
        }
    }

    public void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(30_000);
        }
    }

    /** The ids of the acknowledged messages. */
    public Set<String> acknowledged() {
        return acknowledged.keySet();
    }

    /** Whether a call was refused at once yet: Pacer routes the promoted master's shards to it. */
    public boolean refusedSeen() {
        return refusedSeen.get();
    }

    /** Calls on the promoted master's shards that started at or after {@code from} and were acknowledged. */
    long acknowledgedOnPromotedSince(long from) {
        return calls.stream().filter(call -> call.startedAt() >= from && call.onPromoted() && !call.outcome().failed())
                .count();
    }

    /** The ids of the calls whose outcome matches {@code outcome}, e.g. refused at once (never stored). */
    public Set<String> ids(Predicate<Outcome> outcome) {
        Set<String> ids = new HashSet<>();
        calls.stream().filter(call -> outcome.test(call.outcome())).forEach(call -> ids.add(call.id()));
        return ids;
    }

    /**
     * What {@link #killAndRecover} saw: the promotion, the degraded window, whether durable writes came back, and the
     * healthy shards' calls that failed from the kill to the end of the recovery.
     */
    public record Degraded(long promotedAfterMillis, Window window, boolean recovered, long recoveredAfterMillis,
            List<Call> healthyFailedFromKill) {
    }

    /**
     * Kills the master on {@code victim} ({@code kill -9}) and waits for its replica's promotion; from the first call
     * refused at once, lets the producers run {@code seconds} s against the promoted master without a replica; then
     * restarts the killed node with its own {@code nodes.conf}, so it rejoins as the promoted master's replica, and
     * waits (up to 60 s after it is in sync) until 50 calls on the promoted master's shards were acknowledged.
     */
    public Degraded killAndRecover(LocalCluster cluster, int victim, String queue, int seconds) {
        int replica = cluster.replicaOf(victim).orElseThrow();
        cluster.awaitReplicated(victim);
        Path[] executableAndDirectory = cluster.executableAndDirectory(victim);
        long killedAt = System.currentTimeMillis();
        cluster.kill(victim);
        cluster.awaitFailedOver(victim);
        long promotedAt = System.currentTimeMillis();
        assertThat(cluster.masterOfKey(ClusterLoad.dueKey(queue, promotedShards.iterator().next())))
                .as("the replica took over").isEqualTo(replica);
        assertThat(cluster.replicaOf(replica)).as("the promoted master has no replica").isEmpty();
        // The degraded steady state: measured once the application routes the promoted master's shards to it.
        assertThat(ClusterLoad.eventually(this::refusedSeen)).as("a call refused at once").isTrue();
        long degradedFrom = System.currentTimeMillis();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(seconds));
        Window degraded = window(degradedFrom, System.currentTimeMillis());

        cluster.restart(victim, executableAndDirectory[0], executableAndDirectory[1]);
        cluster.awaitHealthy();
        cluster.awaitReplicated(replica);
        long replicatedAt = System.currentTimeMillis();
        boolean recovered = ClusterLoad.eventually(() -> acknowledgedOnPromotedSince(replicatedAt) >= 50);
        return new Degraded(promotedAt - killedAt, degraded, recovered, System.currentTimeMillis() - replicatedAt,
                window(killedAt, Long.MAX_VALUE).healthyFailed());
    }

    /** The calls that started in [from, to). */
    public Window window(long from, long to) {
        List<Call> healthy = new ArrayList<>();
        List<Call> promoted = new ArrayList<>();
        for (Call call : calls) {
            if (call.startedAt() >= from && call.startedAt() < to) {
                (call.onPromoted() ? promoted : healthy).add(call);
            }
        }
        return new Window(healthy, promoted);
    }

    /** The calls of a window of time: on the healthy shards, and on the promoted master's shards. */
    public record Window(List<Call> healthy, List<Call> promoted) {

        public List<Call> healthyFailed() {
            return healthy.stream().filter(call -> call.outcome().failed()).toList();
        }

        public List<Call> refused() {
            return promoted.stream().filter(call -> call.outcome().refused()).toList();
        }

        /** The {@code percentile} of the calls' durations in ms (100: the slowest); 0 without calls. */
        public static double percentileMillis(List<Call> calls, int percentile) {
            if (calls.isEmpty()) {
                return 0;
            }
            List<Long> took = new ArrayList<>(calls.stream().map(call -> call.outcome().tookMicros()).toList());
            Collections.sort(took);
            return took.get(Math.min(took.size() - 1, took.size() * percentile / 100)) / 1000.0;
        }

        /** One line: calls, failures and latencies of each side. */
        public String describe() {
            List<Call> refused = refused();
            long promotedFailed = promoted.stream().filter(call -> call.outcome().failed()).count();
            return String.format(Locale.ROOT, "healthy shards: %d calls, %d failed, p50 %.1f ms, p99 %.1f ms, slowest"
                    + " %.1f ms; promoted master's shards: %d calls, %d acknowledged, %d refused at once (p50 %.1f ms,"
                    + " p99 %.1f ms, slowest %.1f ms), %d failed otherwise", healthy.size(), healthyFailed().size(),
                    percentileMillis(healthy, 50), percentileMillis(healthy, 99), percentileMillis(healthy, 100),
                    promoted.size(), promoted.size() - promotedFailed, refused.size(), percentileMillis(refused, 50),
                    percentileMillis(refused, 99), percentileMillis(refused, 100), promotedFailed - refused.size());
        }

        /**
         * The degraded steady state: the healthy shards' calls all succeed within {@code healthyP99Millis} (p99); every
         * call on the promoted master's shards is refused at once with the documented error naming
         * {@code promotedNode}, 99 % of them within {@code refusalP99Millis} and each within {@code refusalMaxMillis}.
         */
        public void assertDegradedSteadyState(String promotedNode, long healthyP99Millis, long refusalP99Millis,
                long refusalMaxMillis) {
            List<Call> healthyFailed = healthyFailed();
            List<Call> refused = refused();
            assertThat(healthy).as("calls on healthy shards while degraded").isNotEmpty();
            assertThat(healthyFailed).as("failed calls on healthy shards; first: "
                    + healthyFailed.stream().findFirst().map(call -> call.outcome().failure()).orElse(null)).isEmpty();
            assertThat(percentileMillis(healthy, 99)).as("p99 (ms) of healthy shards' calls while degraded")
                    .isLessThan(healthyP99Millis);
            assertThat(promoted).as("calls on the promoted master's shards while degraded").isNotEmpty();
            assertThat(refused).as("calls on the promoted master's shards refused at once; first other: "
                    + promoted.stream().filter(call -> !call.outcome().refused()).findFirst().orElse(null))
                    .hasSameSizeAs(promoted);
            assertThat(refused.get(0).outcome().failure()).contains("DurabilityUnavailableException")
                    .contains("was not stored: shard").contains(promotedNode).contains("has no connected replica")
                    .contains("Add a replica to that master, or set quarkus.pacer.delayed.durability=primary");
            assertThat(percentileMillis(refused, 99)).as("p99 (ms) of the refusals").isLessThan(refusalP99Millis);
            assertThat(percentileMillis(refused, 100)).as("slowest refusal (ms)").isLessThan(refusalMaxMillis);
        }
    }
}
