package io.quarkiverse.pacer.it.instances;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.deployment.devservices.LocalRedisCluster;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.test.support.BusyCore;
import io.quarkiverse.pacer.test.support.LocalCluster;

/**
 * The instant a replica is promoted, probed as a user of two packaged instances would: a Redis Cluster of 3 masters with
 * one replica each ({@code cluster-node-timeout 2000}), two instances with {@code quarkus.redis.client-type=cluster}
 * and 6 shards (Quarkus defaults otherwise) producing and consuming a queue, and one core kept busy by a spinning
 * process. From before a master is killed ({@code kill -9}) until after its replica took over, a REST endpoint limited
 * to one call per day and key is called twice on a fresh key every {@value #PROBE_PACE_MILLIS} ms, through one instance
 * or the other: on a surviving master's slot the second call must be refused (429), since a second 200 means the first
 * was decided without Redis. Repeated over {@value #FAILOVERS} failovers (the killed node comes back as the new master's
 * replica, then another master is killed).
 * <p>
 * The nodes first run with Redis's default {@code cluster-require-full-coverage yes}, and both instances must warn at
 * startup: with it, every node refuses every command ({@code CLUSTERDOWN}) from the moment a master is seen failed
 * until its replica is promoted, about a second here, and a probe that starts in that time falls back whatever the
 * client does. The failovers then run with {@code cluster-require-full-coverage no}, as the warning and the guide ask
 * (and as Pacer's Dev Services start their nodes). {@code -Dpacer.it.full-coverage=yes} keeps Redis's default for the
 * failovers too: the probes then show the refusal (each round reports when the surviving masters refused).
 */
class TwoInstancesClusterPromotionIT {

    static final int SHARDS = 6;
    static final int FAILOVERS = 5;
    /** A fresh key every this many ms, called twice. */
    static final long PROBE_PACE_MILLIS = 100;
    /** Probes before the kill (the connections to every master are in use), and after the cluster settled. */
    static final int PROBES_BEFORE_KILL = 5;
    static final int PROBES_AFTER_PROMOTION = 10;
    static final String FULL_COVERAGE_WARNING = "run with cluster-require-full-coverage yes";

    /**
     * One probe: when its first call started (ms after the kill), how long it took, both statuses, and whether its key
     * lives on the killed master's slots.
     */
    record Probe(String key, long atMillis, long firstMillis, int first, int second, boolean onVictim) {

        boolean fellBack() {
            return first == 200 && second == 200;
        }

        @Override
        public String toString() {
            return key + " at " + atMillis + " ms: " + first + " in " + firstMillis + " ms, then " + second;
        }
    }

    @Test
    void noDecisionOnASurvivingSlotFallsBackWhenAReplicaIsPromoted() throws Exception {
        LocalRedisCluster redis = new LocalRedisCluster(Path.of(RedisServerProcess.executable()), 1);
        redis.start();
        String hosts = redis.hosts();
        LocalCluster cluster = new LocalCluster(hosts);
        requireFullCoverage(cluster, "yes");
        String[] properties = { "quarkus.redis.client-type=cluster", "quarkus.pacer.delayed.shards=" + SHARDS };
        // One core kept busy by another process, as a neighbour on the machine would.
        BusyCore busy = BusyCore.start();
        try (AppInstance first = new AppInstance("promotion-first", hosts, properties);
                AppInstance second = new AppInstance("promotion-second", hosts, properties)) {
            List<AppInstance> instances = List.of(first, second);
            for (AppInstance instance : instances) {
                await().atMost(Duration.ofSeconds(30)).until(() -> instance.log().contains(FULL_COVERAGE_WARNING));
            }
            run(cluster, instances, System.getProperty("pacer.it.full-coverage", "no"));
        } finally {
            busy.close();
            cluster.close();
            redis.close();
        }
    }

    private void run(LocalCluster cluster, List<AppInstance> instances, String fullCoverage) throws Exception {
        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicInteger scheduled = new AtomicInteger();
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < instances.size(); p++) {
            // Each instance schedules (a message due 500 ms later every 4 ms at most); both consume.
            AppInstance instance = instances.get(p);
            String prefix = "m-" + p + "-";
            Thread producer = new Thread(() -> {
                for (int i = 0; producing.get(); i++) {
                    long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(4);
                    if (instance.status("POST", "/failover/schedule/" + prefix + i) == 204) {
                        scheduled.incrementAndGet();
                    }
                    LockSupport.parkNanos(next - System.nanoTime());
                }
            }, "producer-" + p);
            producer.start();
            producers.add(producer);
        }
        List<String> report = new ArrayList<>();
        int survivingProbes = 0;
        int survivingFallbacks = 0;
        try {
            for (int round = 0; round < FAILOVERS; round++) {
                cluster.awaitHealthy();
                requireFullCoverage(cluster, fullCoverage);
                int victim = cluster.masters().stream().filter(master -> cluster.replicaOf(master).isPresent())
                        .findFirst().orElseThrow(() -> new IllegalStateException("No master has a replica"));
                int replica = cluster.replicaOf(victim).orElseThrow();
                List<Integer> survivors = cluster.masters().stream().filter(master -> master != victim).toList();
                cluster.awaitReplicated(victim);
                Path[] executableAndDirectory = cluster.executableAndDirectory(victim);
                List<int[]> victimSlots = cluster.nodes().stream().filter(node -> node.port() == victim).findFirst()
                        .orElseThrow().slots();
                List<String> keys = new ArrayList<>();
                List<Boolean> keysOnVictim = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    String key = "promotion-" + round + "-" + i;
                    int slot = Integer.parseInt(LocalCluster.command(replica, "CLUSTER", "KEYSLOT",
                            ThrottleKeyLayout.baseKey("pacer", "once", key, "once")));
                    keys.add(key);
                    keysOnVictim.add(victimSlots.stream().anyMatch(range -> slot >= range[0] && slot <= range[1]));
                }

                ConcurrentLinkedQueue<Probe> probes = new ConcurrentLinkedQueue<>();
                AtomicBoolean probing = new AtomicBoolean(true);
                long[] killedAt = { Long.MAX_VALUE };
                Thread prober = new Thread(() -> {
                    for (int i = 0; probing.get() && i < keys.size(); i++) {
                        long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PROBE_PACE_MILLIS);
                        String key = keys.get(i);
                        AppInstance instance = instances.get(i % instances.size());
                        long start = System.currentTimeMillis();
                        long startNanos = System.nanoTime();
                        int firstStatus = instance.status("POST", "/failover/once/" + key);
                        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
                        int secondStatus = instance.status("POST", "/failover/once/" + key);
                        probes.add(new Probe(key, start - killedAt[0], took, firstStatus, secondStatus,
                                keysOnVictim.get(i)));
                        LockSupport.parkNanos(next - System.nanoTime());
                    }
                }, "prober");
                // When the surviving masters refused every command (cluster_state:fail), in ms after the kill.
                AtomicLong refusedFrom = new AtomicLong(Long.MAX_VALUE);
                AtomicLong refusedTo = new AtomicLong(Long.MIN_VALUE);
                Thread stateWatch = new Thread(() -> {
                    while (probing.get()) {
                        for (int survivor : survivors) {
                            if (!clusterStateOk(survivor)) {
                                long at = System.currentTimeMillis() - killedAt[0];
                                refusedFrom.accumulateAndGet(at, Math::min);
                                refusedTo.accumulateAndGet(at, Math::max);
                            }
                        }
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                    }
                }, "cluster-state-watch");
                prober.start();
                stateWatch.start();
                try {
                    await().atMost(Duration.ofSeconds(30)).until(() -> probes.size() >= PROBES_BEFORE_KILL);
                    double fallbacksBefore = fallbacks(instances);
                    killedAt[0] = System.currentTimeMillis();
                    cluster.kill(victim);
                    cluster.awaitFailedOver(victim);
                    long settledAt = System.currentTimeMillis() - killedAt[0];
                    int probesAtSettle = probes.size();
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> probes.size() >= probesAtSettle + PROBES_AFTER_PROMOTION);
                    probing.set(false);
                    prober.join(30_000);
                    stateWatch.join(30_000);
                    double fallbacksInRound = fallbacks(instances) - fallbacksBefore;

                    List<Probe> surviving = probes.stream().filter(probe -> probe.atMillis() >= 0 && !probe.onVictim())
                            .toList();
                    List<Probe> fellBack = surviving.stream().filter(Probe::fellBack).toList();
                    List<Probe> odd = surviving.stream()
                            .filter(probe -> probe.first() != 200 || probe.second() != 429 && probe.second() != 200)
                            .toList();
                    long onVictim = probes.stream().filter(probe -> probe.atMillis() >= 0 && probe.onVictim()).count();
                    long slowest = surviving.stream().mapToLong(Probe::firstMillis).max().orElse(0);
                    survivingProbes += surviving.size();
                    survivingFallbacks += fellBack.size() + odd.size();
                    String refused = refusedFrom.get() == Long.MAX_VALUE ? "never"
                            : "from " + refusedFrom.get() + " to " + refusedTo.get() + " ms after the kill";
                    String line = String.format("failover %d (cluster-require-full-coverage %s): master %d killed, replica"
                            + " %d promoted (cluster settled %d ms after the kill; surviving masters refused every"
                            + " command %s); from the kill to %d probes after the settling: %d probes on surviving"
                            + " slots, %d fell back %s, %d answered otherwise %s, slowest first call %d ms; %d probes on"
                            + " the killed master's slots; fallback decisions counted by both instances: %.0f",
                            round + 1, fullCoverage, victim, replica, settledAt, refused, PROBES_AFTER_PROMOTION,
                            surviving.size(), fellBack.size(), fellBack, odd.size(), odd, slowest, onVictim,
                            fallbacksInRound);
                    report.add(line);
                    System.out.println(line);
                } finally {
                    probing.set(false);
                    prober.join(30_000);
                    stateWatch.join(30_000);
                }
                // The killed node comes back as the promoted master's replica: every master has a replica again.
                cluster.restart(victim, executableAndDirectory[0], executableAndDirectory[1]);
            }
        } finally {
            producing.set(false);
            for (Thread producer : producers) {
                producer.join(30_000);
            }
        }
        System.out.printf("Promotion probes over %d failovers: %d on surviving slots, %d fell back or failed; %d"
                + " schedules acknowledged meanwhile%n", FAILOVERS, survivingProbes, survivingFallbacks, scheduled.get());
        assertThat(survivingProbes).as("probes on surviving slots around the promotions")
                .isGreaterThanOrEqualTo(FAILOVERS * 10);
        assertThat(survivingFallbacks).as("probes on surviving slots decided without Redis, or failed:\n"
                + String.join("\n", report)).isZero();
    }

    private static boolean clusterStateOk(int port) {
        try {
            return LocalCluster.command(port, "CLUSTER", "INFO").contains("cluster_state:ok");
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** Sets {@code cluster-require-full-coverage} on every node that answers. */
    private static void requireFullCoverage(LocalCluster cluster, String value) {
        for (LocalCluster.Node node : cluster.nodes()) {
            if (!node.failed()) {
                LocalCluster.command(node.port(), "CONFIG", "SET", "cluster-require-full-coverage", value);
            }
        }
    }

    private static double fallbacks(List<AppInstance> instances) throws Exception {
        double sum = 0;
        for (AppInstance instance : instances) {
            sum += instance.fallbackDecisions();
        }
        return sum;
    }
}
