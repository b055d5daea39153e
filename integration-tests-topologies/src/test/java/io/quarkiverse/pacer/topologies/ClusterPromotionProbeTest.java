package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.test.support.BusyCore;
import io.quarkiverse.pacer.test.support.ClusterLoad;
import io.quarkiverse.pacer.test.support.LocalCluster;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Throttle decisions on the surviving masters' slots at the instant a replica is promoted, probed as a user would: a
 * fresh key per probe (its first call, so the slot is new to the probe too), paced, from before a master is killed
 * ({@code kill -9}) until after its replica took over, while a queue is produced and consumed and one core is kept busy
 * by a spinning process; repeated over {@value #FAILOVERS} failovers (the killed node comes back as the new master's
 * replica, so the next round can kill another master). Every probe on a surviving slot is decided by Redis: no
 * fallback.
 */
class ClusterPromotionProbeTest extends ClusterFailureTestBase {

    private static final Logger LOG = Logger.getLogger(ClusterPromotionProbeTest.class);
    static final int FAILOVERS = 5;
    /** A probe every this many ms, each on a fresh key. */
    static final long PROBE_PACE_MILLIS = 20;
    /** Probes go on this long after the cluster settled, so the promotion instant lies well inside them. */
    static final Duration AFTER_PROMOTION = Duration.ofSeconds(1);

    @RegisterExtension
    static final QuarkusUnitTest config = application(1, ClusterPromotionProbeTest.class, BusyCore.class);

    /** One probe: when it started (ms after the kill), how long it took, and whether its decision fell back. */
    record Probe(long atMillis, long tookMillis, boolean fellBack) {
    }

    @Test
    void noDecisionOnASurvivingSlotFallsBackAtThePromotion() throws Exception {
        LocalCluster cluster = cluster();
        // One core kept busy by another process, as a neighbour on the machine would.
        BusyCore busy = BusyCore.start();
        List<String> report = new ArrayList<>();
        int totalProbes = 0;
        int totalFallbacks = 0;
        try {
            for (int round = 0; round < FAILOVERS; round++) {
                cluster.awaitHealthy();
                int victim = pickVictim(cluster);
                int replica = cluster.replicaOf(victim).orElseThrow();
                cluster.awaitReplicated(victim);
                Path[] executableAndDirectory = cluster.executableAndDirectory(victim);
                List<String> keys = survivingKeys(cluster, victim, "r" + round, 600);
                Set<Integer> victimShards = ClusterLoad.shardsOn(cluster, QUEUE, SHARDS, victim);

                ClusterLoad load = new ClusterLoad(SHARDS, victimShards);
                load.start(1, id -> queue.scheduleWithId(QUEUE, id, id, Duration.ofMillis(200)), Duration.ofMillis(200));
                ConcurrentLinkedQueue<Probe> probes = new ConcurrentLinkedQueue<>();
                AtomicBoolean probing = new AtomicBoolean(true);
                long[] killedAt = { Long.MAX_VALUE };
                Thread prober = new Thread(() -> {
                    for (String key : keys) {
                        if (!probing.get()) {
                            break;
                        }
                        long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PROBE_PACE_MILLIS);
                        long fallbacksBefore = engine.fallbackDecisions();
                        long start = System.currentTimeMillis();
                        try {
                            api.exact(key);
                        } catch (ThrottledException e) {
                            // a fresh key's first call is admitted; counted as a probe all the same
                        }
                        long took = System.currentTimeMillis() - start;
                        probes.add(new Probe(start - killedAt[0], took, engine.fallbackDecisions() > fallbacksBefore));
                        LockSupport.parkNanos(next - System.nanoTime());
                    }
                }, "prober");
                prober.start();
                try {
                    // Probes before the kill too: the connections to every surviving master are in use.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
                    killedAt[0] = System.currentTimeMillis();
                    cluster.kill(victim);
                    cluster.awaitFailedOver(victim);
                    long failedOverAt = System.currentTimeMillis() - killedAt[0];
                    LockSupport.parkNanos(AFTER_PROMOTION.toNanos());
                    probing.set(false);
                    prober.join(30_000);
                    load.stop();

                    List<Probe> around = probes.stream().filter(probe -> probe.atMillis() >= 0).toList();
                    List<Probe> fellBack = around.stream().filter(Probe::fellBack).toList();
                    Probe slowest = around.stream().max(Comparator.comparingLong(Probe::tookMillis))
                            .orElse(new Probe(0, 0, false));
                    totalProbes += around.size();
                    totalFallbacks += fellBack.size();
                    String line = String.format("failover %d: master %d killed, replica %d promoted (cluster settled"
                            + " %d ms after the kill); %d probes on surviving slots from the kill to %d ms after it, %d"
                            + " fell back %s, slowest %d ms (started %d ms after the kill)", round + 1, victim, replica,
                            failedOverAt, around.size(), failedOverAt + AFTER_PROMOTION.toMillis(), fellBack.size(), fellBack,
                            slowest.tookMillis(), slowest.atMillis());
                    report.add(line);
                    LOG.info(line);
                } finally {
                    probing.set(false);
                    prober.join(30_000);
                    load.stop();
                }
                // The killed node comes back as the promoted master's replica: every master has a replica again.
                cluster.restart(victim, executableAndDirectory[0], executableAndDirectory[1]);
            }
        } finally {
            busy.close();
            cluster.close();
        }
        LOG.infof("Promotion probes over %d failovers: %d on surviving slots, %d fell back", FAILOVERS, totalProbes,
                totalFallbacks);
        assertThat(totalProbes).as("probes on surviving slots around the promotions").isGreaterThanOrEqualTo(FAILOVERS);
        assertThat(totalFallbacks).as("fallback decisions on surviving slots around the promotions:\n"
                + String.join("\n", report)).isZero();
    }

    /** A master with a replica: after a restart the killed node is the new master's replica. */
    private static int pickVictim(LocalCluster cluster) {
        return cluster.masters().stream().filter(master -> cluster.replicaOf(master).isPresent()).findFirst()
                .orElseThrow(() -> new IllegalStateException("No master has a replica: " + cluster.nodes()));
    }

    /** {@code count} fresh keys of the policy {@code exact} whose slots do not live on {@code victim}. */
    private static List<String> survivingKeys(LocalCluster cluster, int victim, String prefix, int count) {
        List<int[]> victimSlots = cluster.nodes().stream().filter(node -> node.port() == victim).findFirst()
                .orElseThrow().slots();
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < count; i++) {
            String key = "promotion-" + prefix + "-" + i;
            int slot = cluster.slotOf(ThrottleKeyLayout.baseKey("pacer", "exact", key, "exact"));
            if (victimSlots.stream().noneMatch(range -> slot >= range[0] && slot <= range[1])) {
                keys.add(key);
            }
        }
        return keys;
    }
}
