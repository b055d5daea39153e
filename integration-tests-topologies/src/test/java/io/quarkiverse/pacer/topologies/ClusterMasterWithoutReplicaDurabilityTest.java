package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkiverse.pacer.test.support.ClusterLoad;
import io.quarkiverse.pacer.test.support.LocalCluster;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code durability=replicas} through a Redis Cluster failover and the degraded state after it: producers write to
 * every shard of a 6-shard queue while a master is killed ({@code kill -9}); its replica is promoted and has no replica
 * of its own for {@value #DEGRADED_SECONDS} s, with one core kept busy by another process. Meanwhile the healthy shards'
 * schedules never fail and are not held back by the promoted master's; the promoted master's fail at once with
 * {@link DurabilityUnavailableException} (not stored); no acknowledged message is lost. When the killed node comes back
 * as the promoted master's replica, its shards take durable writes again without a restart.
 */
class ClusterMasterWithoutReplicaDurabilityTest extends ClusterFailureTestBase {

    private static final Logger LOG = Logger.getLogger(ClusterMasterWithoutReplicaDurabilityTest.class);
    static final int DEGRADED_SECONDS = 60;
    static final int PRODUCERS = 8;
    /** A call refused because its master has no replica waits for nothing: 99 % of them within this bound. */
    static final long FAIL_FAST_P99_MILLIS = 100;
    /**
     * And none waits for a replica's answer ({@code durability-timeout}, 1 s): on a busy 2-core machine a pause of the
     * JVM can still make one of tens of thousands of refusals last longer than the p99 bound.
     */
    static final long FAIL_FAST_MAX_MILLIS = 1_000;
    /** Healthy shards' calls never wait for the durability timeout (1 s) of another master's writes. */
    static final long HEALTHY_P99_MILLIS = 1_000;

    @RegisterExtension
    static final QuarkusUnitTest config = application(1, ClusterMasterWithoutReplicaDurabilityTest.class)
            .overrideConfigKey("quarkus.pacer.delayed.durability", "replicas");

    /** One schedule call: when it started, how long it took, on which side, and how it ended. */
    record Call(long startedAt, long tookMillis, boolean onPromoted, Throwable failure) {
    }

    @Test
    void healthyShardsKeepGoingWhileAPromotedMasterHasNoReplica() throws Exception {
        LocalCluster cluster = cluster();
        int victim = cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, 0));
        int replica = cluster.replicaOf(victim).orElseThrow();
        cluster.awaitReplicated(victim);
        Path[] executableAndDirectory = cluster.executableAndDirectory(victim);
        Set<Integer> promotedShards = ClusterLoad.shardsOn(cluster, QUEUE, SHARDS, victim);
        assertThat(promotedShards).as("shards on the victim").isNotEmpty().hasSizeLessThan(SHARDS);

        Process spinner = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Call> calls = new CopyOnWriteArrayList<>();
        Map<String, Long> acknowledged = new ConcurrentHashMap<>();
        AtomicReference<Long> phaseStart = new AtomicReference<>(Long.MAX_VALUE);
        AtomicBoolean refusedSeen = new AtomicBoolean();
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            Thread thread = new Thread(() -> {
                AtomicInteger ids = new AtomicInteger();
                for (int n = 0; running.get(); n++) {
                    // Each producer writes to every shard in turn, as producers of random ids do.
                    int shard = Math.floorMod(n + producer, SHARDS);
                    String id = "d" + producer + "-" + ids.getAndIncrement();
                    while (ClusterLoad.shardOf(id, SHARDS) != shard) {
                        id = "d" + producer + "-" + ids.getAndIncrement();
                    }
                    long started = System.currentTimeMillis();
                    long start = System.nanoTime();
                    Throwable failure = null;
                    try {
                        queue.scheduleWithId(QUEUE, id, id, Duration.ofMillis(200));
                        acknowledged.put(id, started);
                    } catch (RuntimeException e) {
                        failure = e;
                        if (e instanceof DurabilityUnavailableException) {
                            refusedSeen.set(true);
                        }
                    }
                    if (started >= phaseStart.get()) {
                        calls.add(new Call(started, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                                promotedShards.contains(shard), failure));
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                }
            }, "producer-" + p);
            thread.start();
            producers.add(thread);
        }
        try {
            ClusterLoad.eventually(() -> acknowledged.size() >= 300);
            cluster.kill(victim);
            cluster.awaitFailedOver(victim);
            assertThat(cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, promotedShards.iterator().next())))
                    .as("the replica took over").isEqualTo(replica);
            assertThat(cluster.replicaOf(replica)).as("the promoted master has no replica").isEmpty();
            // The degraded steady state: measured once Pacer routes the promoted master's shards to it.
            ClusterLoad.eventually(refusedSeen::get);
            long degradedFrom = System.currentTimeMillis();
            phaseStart.set(degradedFrom);
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(DEGRADED_SECONDS));
            List<Call> degraded = new ArrayList<>(calls);
            phaseStart.set(Long.MAX_VALUE);

            // The killed node comes back as the promoted master's replica: durable writes to its shards work again.
            cluster.restart(victim, executableAndDirectory[0], executableAndDirectory[1]);
            cluster.awaitHealthy();
            cluster.awaitReplicated(replica);
            long recoveredFrom = System.currentTimeMillis();
            phaseStart.set(recoveredFrom);
            boolean recovered = ClusterLoad.eventually(() -> calls.stream().filter(
                    call -> call.startedAt() >= recoveredFrom && call.onPromoted() && call.failure() == null).count() >= 50);
            running.set(false);
            for (Thread thread : producers) {
                thread.join(30_000);
            }
            boolean allDelivered = ClusterLoad.eventually(
                    () -> ClusterLoad.lost(consumer.receivedAt, acknowledged.keySet()) == 0);

            List<Call> healthy = degraded.stream().filter(call -> !call.onPromoted()).toList();
            List<Call> promoted = degraded.stream().filter(Call::onPromoted).toList();
            List<Call> healthyFailed = healthy.stream().filter(call -> call.failure() != null).toList();
            List<Call> promotedRefused = promoted.stream()
                    .filter(call -> call.failure() instanceof DurabilityUnavailableException).toList();
            long slowestRefusal = promotedRefused.stream().mapToLong(Call::tookMillis).max().orElse(0);
            long refusalP99 = percentile(promotedRefused, 99);
            long healthyP99 = percentile(healthy, 99);
            LOG.infof("durability=replicas, %d s with a promoted master without replica, %d producers over %d shards"
                    + " (%d on it): healthy shards: %d calls, %d failed, p50 %d ms, p99 %d ms, slowest %d ms; promoted"
                    + " master's shards: %d calls, %d refused at once (p99 %d ms, slowest %d ms), %d other outcomes;"
                    + " acknowledged %d, lost %d; after the old master came back as replica: %s",
                    DEGRADED_SECONDS, PRODUCERS, SHARDS, promotedShards.size(), healthy.size(), healthyFailed.size(),
                    percentile(healthy, 50), healthyP99, percentile(healthy, 100), promoted.size(),
                    promotedRefused.size(), refusalP99, slowestRefusal, promoted.size() - promotedRefused.size(),
                    acknowledged.size(), ClusterLoad.lost(consumer.receivedAt, acknowledged.keySet()),
                    recovered ? "durable writes succeed again" : "durable writes still fail");

            assertThat(healthy).as("calls on healthy shards while degraded").isNotEmpty();
            assertThat(healthyFailed).as("failed calls on healthy shards; first: "
                    + healthyFailed.stream().findFirst().map(Call::failure).orElse(null)).isEmpty();
            assertThat(healthyP99).as("p99 (ms) of healthy shards' calls while degraded").isLessThan(HEALTHY_P99_MILLIS);
            assertThat(promoted).as("calls on the promoted master's shards while degraded").isNotEmpty();
            assertThat(promotedRefused).as("calls on the promoted master's shards refused at once; others: "
                    + promoted.stream().filter(call -> !(call.failure() instanceof DurabilityUnavailableException))
                            .findFirst().orElse(null))
                    .hasSameSizeAs(promoted);
            assertThat(promotedRefused.get(0).failure().getMessage()).contains("was not stored")
                    .contains("127.0.0.1:" + replica).contains("has no connected replica")
                    .contains("Add a replica to that master, or set quarkus.pacer.delayed.durability=primary");
            assertThat(refusalP99).as("p99 (ms) of the refusals").isLessThan(FAIL_FAST_P99_MILLIS);
            assertThat(slowestRefusal).as("slowest refusal (ms)").isLessThan(FAIL_FAST_MAX_MILLIS);
            assertThat(recovered).as("durable writes to the promoted master's shards once it has a replica").isTrue();
            assertThat(allDelivered).as("every acknowledged message delivered, lost: "
                    + ClusterLoad.lost(consumer.receivedAt, acknowledged.keySet())).isTrue();
        } finally {
            running.set(false);
            for (Thread thread : producers) {
                thread.join(30_000);
            }
            spinner.destroyForcibly();
            cluster.close();
        }
    }

    private static long percentile(List<Call> calls, int percentile) {
        if (calls.isEmpty()) {
            return 0;
        }
        List<Long> took = new ArrayList<>(calls.stream().map(Call::tookMillis).toList());
        Collections.sort(took);
        return took.get(Math.min(took.size() - 1, took.size() * percentile / 100));
    }
}
