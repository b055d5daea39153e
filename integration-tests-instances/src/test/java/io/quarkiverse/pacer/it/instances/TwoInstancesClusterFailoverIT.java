package io.quarkiverse.pacer.it.instances;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.pacer.deployment.devservices.LocalRedisCluster;
import io.quarkiverse.pacer.test.support.ClusterLoad;
import io.quarkiverse.pacer.test.support.LocalCluster;

/**
 * The one-instance {@code ClusterFailoverScenario} with two packaged instances: the test starts a Redis Cluster of 3
 * masters with one replica each ({@code cluster-node-timeout 2000}) and two instances with
 * {@code quarkus.redis.client-type=cluster} and 6 shards, Quarkus defaults otherwise. Both schedule (with ids), consume
 * and probe throttle keys while one master is killed ({@code kill -9}) and its replica takes over. Calls whose slots
 * live on the surviving masters see no fallback and no error; every acknowledged schedule is delivered (by one
 * instance or the other); limits are exact across both instances after the failover.
 */
class TwoInstancesClusterFailoverIT {

    static final String QUEUE = "failover";
    static final int SHARDS = 6;
    static final Duration DELAY = Duration.ofMillis(500);
    static final int EXACT_LIMIT = 5;
    /** Generous for two JVMs and six Redis nodes on a busy 2-core machine; measured: tens of milliseconds. */
    static final long HEALTHY_LATENESS_P99_MILLIS = 1_000;
    /**
     * What a failed {@code schedule} may say (redis-topologies.adoc, "Durability"): not stored (the promoted master has
     * no replica yet), stored but not confirmed by a replica, or unknown; each with the exception the guide names.
     */
    static final List<String> DOCUMENTED_FAILURES = List.of("was not stored: shard",
            "stored by the primary but not confirmed by a replica", "RedisUnavailableException",
            "RedisTimeoutException");

    @ParameterizedTest
    @ValueSource(strings = { "primary", "replicas" })
    void survivingSlotsDoNotNoticeAMasterFailover(String durability) throws Exception {
        LocalRedisCluster redis = new LocalRedisCluster(Path.of(RedisServerProcess.executable()), 1);
        redis.start();
        String hosts = redis.hosts();
        LocalCluster cluster = new LocalCluster(hosts);
        String[] properties = { "quarkus.redis.client-type=cluster", "quarkus.pacer.delayed.shards=" + SHARDS,
                "quarkus.pacer.delayed.durability=" + durability };
        try (AppInstance first = new AppInstance("failover-first", hosts, properties);
                AppInstance second = new AppInstance("failover-second", hosts, properties)) {
            List<AppInstance> instances = List.of(first, second);
            run(durability, cluster, instances);
        } finally {
            cluster.close();
            redis.close();
        }
    }

    private void run(String durability, LocalCluster cluster, List<AppInstance> instances) throws Exception {
        int victim = cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, 0));
        int replica = cluster.replicaOf(victim).orElseThrow();
        Path[] executableAndDirectory = cluster.executableAndDirectory(victim);
        Set<Integer> victimShards = ClusterLoad.shardsOn(cluster, QUEUE, SHARDS, victim);
        List<String> survivingKeys = ClusterLoad.throttleKeys(cluster, "probe", 20, port -> port != victim);
        assertThat(victimShards).as("shards on the victim").isNotEmpty().hasSizeLessThan(SHARDS);

        // Each id and key goes to one instance or the other: both produce, consume and throttle.
        ClusterLoad load = new ClusterLoad(SHARDS, victimShards);
        List<String> failures = new CopyOnWriteArrayList<>();
        load.start(2, id -> {
            AppInstance.Answer answer = instanceFor(instances, id).call("POST", "/failover/schedule/" + id);
            if (answer.status() != 204) {
                failures.add(answer.status() + " " + answer.body());
                throw new IllegalStateException("schedule " + id + ": " + answer.status() + " " + answer.body());
            }
        }, DELAY);
        ClusterLoad.Prober prober = load.startProber(
                key -> expect(200, instanceFor(instances, key + System.nanoTime()), "/failover/probe/" + key),
                survivingKeys);
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> load.acknowledged() >= 300);
            if (durability.equals("primary")) {
                // primary acknowledges before replicating: hold the victim's writes and let its replica catch up, so
                // the kill cannot take an acknowledged message with it (what durability=replicas guarantees anyway).
                LocalCluster.command(victim, "CLIENT", "PAUSE", "60000", "WRITE");
                cluster.awaitReplicated(victim);
            }
            long killedAt = System.currentTimeMillis();
            int probesAtKill = prober.calls();
            cluster.kill(victim);
            cluster.awaitFailedOver(victim);
            long failedOverAt = System.currentTimeMillis();
            int probesDuringFailover = prober.calls() - probesAtKill;
            double fallbacksDuringFailover = fallbacks(instances);
            cluster.restart(victim, executableAndDirectory[0], executableAndDirectory[1]);
            cluster.awaitHealthy();
            cluster.awaitReplicated(replica);
            int victimAcknowledgedAtFailover = load.acknowledgedOnVictim();
            boolean victimShardsBack = ClusterLoad.eventually(
                    () -> load.acknowledgedOnVictim() >= victimAcknowledgedAtFailover + 50);
            load.stop();
            Map<String, Long> receivedAt = new ConcurrentHashMap<>();
            boolean allDelivered = ClusterLoad.eventually(() -> load.lost(received(instances, receivedAt)) == 0);
            long p50 = load.healthyLatenessPercentile(receivedAt, killedAt, failedOverAt, 50);
            long p99 = load.healthyLatenessPercentile(receivedAt, killedAt, failedOverAt, 99);
            System.out.printf("Two instances, Cluster failover, durability=%s: replica promoted %d ms after the kill;"
                    + " schedule calls: %d acknowledged, %d failed (%d of them delivered all the same), %d of them on"
                    + " surviving masters' shards; throttle probes on surviving slots during the failover: %d, %.0f"
                    + " fallbacks, %d errors; acknowledged messages lost: %d; lateness of the %d surviving shards'"
                    + " messages due during the failover: p50 %d ms, p99 %d ms%n",
                    durability, failedOverAt - killedAt, load.acknowledged(), load.failed(),
                    load.failedButDelivered(receivedAt), load.failedOnHealthyShards(), probesDuringFailover,
                    fallbacksDuringFailover, prober.errors(), load.lost(receivedAt),
                    load.healthyDueBetween(killedAt, failedOverAt), p50, p99);

            System.out.printf("Failed schedules: %s; messages consumed by each instance: %d and %d%n", failures,
                    consumed(instances.get(0)), consumed(instances.get(1)));

            assertThat(load.failedOnHealthyShards()).as("failed schedules on surviving masters' shards; last: "
                    + load.lastFailure()).isZero();
            assertThat(prober.errors()).as("throttle errors on surviving slots: " + prober.lastError()).isZero();
            assertThat(fallbacksDuringFailover).as("fallback decisions on surviving slots").isZero();
            assertThat(probesDuringFailover).as("probes decided during the failover").isPositive();
            assertThat(victimShardsBack).as("schedules succeed on the promoted replica's shards; last failure: "
                    + load.lastFailure()).isTrue();
            assertThat(allDelivered).as("every acknowledged message delivered, lost: " + load.lost(receivedAt))
                    .isTrue();
            assertThat(load.healthyDueBetween(killedAt, failedOverAt)).as("healthy messages due during the failover")
                    .isPositive();
            assertThat(p99).as("lateness p99 (ms) of healthy shards' messages due during the failover")
                    .isLessThan(HEALTHY_LATENESS_P99_MILLIS);
            assertThat(failures).as("failed schedules, each in one of the guide's words")
                    .allMatch(failure -> failure.startsWith("503 ")
                            && DOCUMENTED_FAILURES.stream().anyMatch(failure::contains));

            assertThat(cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, victimShards.iterator().next())))
                    .as("the replica took over").isEqualTo(replica);
            String promotedKey = ClusterLoad.throttleKeys(cluster, "exact", 1, port -> port == replica).get(0);
            String survivingKey = ClusterLoad.throttleKeys(cluster, "exact", 1, port -> port != replica).get(0);
            assertThat(admitted(instances, promotedKey)).as("exact on the promoted replica").isEqualTo(EXACT_LIMIT);
            assertThat(admitted(instances, survivingKey)).as("exact on a surviving master").isEqualTo(EXACT_LIMIT);
            assertThat(fallbacks(instances)).as("fallback decisions after the failover").isZero();
        } finally {
            load.stop();
        }
    }

    private static AppInstance instanceFor(List<AppInstance> instances, String id) {
        return instances.get(Math.floorMod(id.hashCode(), instances.size()));
    }

    /** Calls {@code path} with POST; a status other than {@code expected} is an error of the load. */
    private static void expect(int expected, AppInstance instance, String path) {
        int status = instance.status("POST", path);
        if (status != expected) {
            throw new IllegalStateException("POST " + path + " answered " + status);
        }
    }

    /** {@code receivedAt} filled with the ids both instances consumed and when; returned for chaining. */
    static Map<String, Long> received(List<AppInstance> instances, Map<String, Long> receivedAt)
            throws Exception {
        for (AppInstance instance : instances) {
            for (String line : instance.get("/failover/received").split("\n")) {
                if (!line.isBlank()) {
                    String[] idAndTime = line.split(" ");
                    receivedAt.merge(idAndTime[0], Long.parseLong(idAndTime[1]), Math::min);
                }
            }
        }
        return receivedAt;
    }

    private static long consumed(AppInstance instance) throws Exception {
        return instance.get("/failover/received").lines().filter(line -> !line.isBlank()).count();
    }

    private static double fallbacks(List<AppInstance> instances) throws Exception {
        double sum = 0;
        for (AppInstance instance : instances) {
            sum += instance.fallbackDecisions();
        }
        return sum;
    }

    /** Of {@code 2 * limit} calls on {@code key}, alternately through each instance, how many were admitted. */
    private static int admitted(List<AppInstance> instances, String key) {
        int admitted = 0;
        for (int call = 0; call < 2 * EXACT_LIMIT; call++) {
            int status = instances.get(call % instances.size()).status("POST", "/failover/exact/" + key);
            assertThat(status).as("status of an exact call").isIn(200, 429);
            admitted += status == 200 ? 1 : 0;
        }
        return admitted;
    }
}
