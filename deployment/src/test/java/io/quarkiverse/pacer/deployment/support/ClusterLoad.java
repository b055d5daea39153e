package io.quarkiverse.pacer.deployment.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;

/**
 * Paced load on a sharded delay queue of a Redis Cluster while one master fails: producers schedule messages with ids
 * (each thread one call every {@value #PACE_MILLIS} ms, some threads on the failing master's shards, the others on the
 * other shards) and this class counts, per shard group (the failing master's
 * shards or the others), what was acknowledged, what failed and when each acknowledged message was due.
 */
public final class ClusterLoad {

    static final long PACE_MILLIS = 4;

    private final int shards;
    private final Set<Integer> victimShards;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final Map<String, Long> dueAt = new ConcurrentHashMap<>();
    private final AtomicInteger acknowledgedOnVictim = new AtomicInteger();
    private final Set<String> failedIds = ConcurrentHashMap.newKeySet();
    private final AtomicInteger failedOnHealthyShards = new AtomicInteger();
    private final AtomicReference<String> lastFailure = new AtomicReference<>();

    /** {@code victimShards}: the shards whose slots live on the master that will fail. */
    public ClusterLoad(int shards, Set<Integer> victimShards) {
        this.shards = shards;
        this.victimShards = victimShards;
    }

    /** The due set of a shard of {@code queue}, with the default key prefix. */
    public static String dueKey(String queue, int shard) {
        return "pacer:d:{" + queue + "#" + shard + "}:due";
    }

    /** The shard of message {@code id}, as Pacer picks it ({@code String.hashCode} is specified, so stable). */
    public static int shardOf(String id, int shards) {
        return Math.floorMod(id.hashCode(), shards);
    }

    /** The shards of {@code queue} whose slots the master on {@code port} serves. */
    public static Set<Integer> shardsOn(LocalCluster cluster, String queue, int shards, int port) {
        Set<Integer> on = new HashSet<>();
        for (int shard = 0; shard < shards; shard++) {
            if (cluster.masterOfKey(dueKey(queue, shard)) == port) {
                on.add(shard);
            }
        }
        return on;
    }

    /** {@code count} keys of throttle policy {@code policy} whose slot's master port matches {@code master}. */
    public static List<String> throttleKeys(LocalCluster cluster, String policy, int count, IntPredicate master) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < count; i++) {
            String key = policy + "-key-" + i;
            if (master.test(cluster.masterOfKey(ThrottleKeyLayout.baseKey("pacer", policy, key, policy)))) {
                keys.add(key);
            }
        }
        return keys;
    }

    /**
     * Starts {@code producers} threads scheduling ids of the failing master's shards and as many scheduling ids of the
     * other shards, through {@code schedule}, due {@code delay} after the call: a call that waits for the failing
     * master never holds back the others.
     */
    public void start(int producers, Consumer<String> schedule, Duration delay) {
        for (boolean victimGroup : new boolean[] { true, false }) {
            for (int p = 0; p < producers; p++) {
                String prefix = "m-" + (victimGroup ? "v" : "h") + p + "-";
                AtomicInteger ids = new AtomicInteger();
                startThread("producer-" + prefix, i -> {
                    String id = prefix + ids.getAndIncrement();
                    while (victimShards.contains(shardOf(id, shards)) != victimGroup) {
                        id = prefix + ids.getAndIncrement();
                    }
                    scheduleOne(id, victimGroup, schedule, delay);
                });
            }
        }
    }

    private void scheduleOne(String id, boolean onVictim, Consumer<String> schedule, Duration delay) {
        long due = System.currentTimeMillis() + delay.toMillis();
        try {
            schedule.accept(id);
            dueAt.put(id, due);
            if (onVictim) {
                acknowledgedOnVictim.incrementAndGet();
            }
        } catch (RuntimeException e) {
            failedIds.add(id);
            if (!onVictim) {
                failedOnHealthyShards.incrementAndGet();
            }
            lastFailure.set(id + ": " + e);
        }
    }

    /** Starts a thread running {@code step} with 0, 1, 2, ... every {@value #PACE_MILLIS} ms until {@link #stop}. */
    public void startThread(String name, IntConsumer step) {
        Thread thread = new Thread(() -> {
            for (int i = 0; running.get(); i++) {
                long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PACE_MILLIS);
                step.accept(i);
                LockSupport.parkNanos(next - System.nanoTime());
            }
        }, name);
        thread.start();
        threads.add(thread);
    }

    /** Calls {@code call} with {@code keys} in turn, paced, until {@link #stop}, counting successes and errors. */
    public Prober startProber(Consumer<String> call, List<String> keys) {
        Prober prober = new Prober();
        startThread("prober", i -> {
            try {
                call.accept(keys.get(i % keys.size()));
                prober.calls.incrementAndGet();
            } catch (RuntimeException e) {
                prober.errors.incrementAndGet();
                prober.lastError.set(e.toString());
            }
        });
        return prober;
    }

    /** The counts of a prober: calls that returned, and errors with the last one. */
    public static final class Prober {
        private final AtomicInteger calls = new AtomicInteger();
        private final AtomicInteger errors = new AtomicInteger();
        private final AtomicReference<String> lastError = new AtomicReference<>();

        public int calls() {
            return calls.get();
        }

        public int errors() {
            return errors.get();
        }

        public String lastError() {
            return lastError.get();
        }
    }

    public void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(30_000);
        }
    }

    public int acknowledged() {
        return dueAt.size();
    }

    public Set<String> acknowledgedIds() {
        return new HashSet<>(dueAt.keySet());
    }

    public int acknowledgedOnVictim() {
        return acknowledgedOnVictim.get();
    }

    public int failed() {
        return failedIds.size();
    }

    /** Schedules reported as failed whose message was delivered all the same. */
    public long failedButDelivered(Map<String, Long> receivedAt) {
        return failedIds.stream().filter(receivedAt::containsKey).count();
    }

    public int failedOnHealthyShards() {
        return failedOnHealthyShards.get();
    }

    public String lastFailure() {
        return lastFailure.get();
    }

    /** Acknowledged messages not in {@code receivedAt} (delivered ids with their time of delivery). */
    public long lost(Map<String, Long> receivedAt) {
        return lost(receivedAt, dueAt.keySet());
    }

    /** The ids of {@code acknowledged} not in {@code receivedAt}. */
    public static long lost(Map<String, Long> receivedAt, Set<String> acknowledged) {
        return acknowledged.stream().filter(id -> !receivedAt.containsKey(id)).count();
    }

    /** The acknowledged messages of the shards that do not live on the failing master. */
    public Set<String> acknowledgedOnHealthyShards() {
        Set<String> ids = new HashSet<>();
        dueAt.keySet().stream().filter(id -> !victimShards.contains(shardOf(id, shards))).forEach(ids::add);
        return ids;
    }

    /**
     * The {@code percentile} of the lateness (ms) of the healthy shards' acknowledged messages due in [from, to];
     * a message not delivered counts as late as {@code Long.MAX_VALUE}; 0 when there is none.
     */
    public long healthyLatenessPercentile(Map<String, Long> receivedAt, long from, long to, int percentile) {
        List<Long> lateness = new ArrayList<>();
        dueAt.forEach((id, due) -> {
            if (due >= from && due <= to && !victimShards.contains(shardOf(id, shards))) {
                Long received = receivedAt.get(id);
                lateness.add(received == null ? Long.MAX_VALUE : Math.max(0, received - due));
            }
        });
        if (lateness.isEmpty()) {
            return 0;
        }
        lateness.sort(null);
        return lateness.get(Math.min(lateness.size() - 1, lateness.size() * percentile / 100));
    }

    /** Waits up to 60 s for {@code condition}; returns whether it held, so a test can report before it asserts. */
    public static boolean eventually(java.util.concurrent.Callable<Boolean> condition) {
        try {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(condition);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /** The number of the healthy shards' acknowledged messages due in [from, to]. */
    public long healthyDueBetween(long from, long to) {
        return dueAt.entrySet().stream().filter(e -> e.getValue() >= from && e.getValue() <= to
                && !victimShards.contains(shardOf(e.getKey(), shards))).count();
    }
}
