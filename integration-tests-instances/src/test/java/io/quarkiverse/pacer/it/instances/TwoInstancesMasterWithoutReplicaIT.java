package io.quarkiverse.pacer.it.instances;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkiverse.pacer.deployment.devservices.LocalRedisCluster;
import io.quarkiverse.pacer.test.support.BusyCore;
import io.quarkiverse.pacer.test.support.ClusterLoad;
import io.quarkiverse.pacer.test.support.EveryShardProducers;
import io.quarkiverse.pacer.test.support.EveryShardProducers.Outcome;
import io.quarkiverse.pacer.test.support.LocalCluster;

/**
 * The degraded steady state of {@code durability=replicas} after a Redis Cluster failover, with two packaged instances:
 * the test starts a Redis Cluster of 3 masters with one replica each ({@code cluster-node-timeout 2000}) and two
 * instances with {@code quarkus.redis.client-type=cluster}, 6 shards and {@code durability=replicas}, Quarkus defaults
 * otherwise; {@value #PRODUCERS} producers (half through each instance) schedule with ids on every shard in turn while
 * one master is killed ({@code kill -9}) and for {@value #DEGRADED_SECONDS} s after its replica, promoted, is left
 * without a replica, with one core kept busy by another process. The healthy shards' calls never fail and keep their
 * latency; each call on the promoted master's shards is refused at once, inside the application, with the documented
 * {@link DurabilityUnavailableException} (not stored, so never delivered); every acknowledged message is delivered by
 * one instance or the other. When the killed node comes back as the promoted master's replica, its shards take durable
 * writes again without restarting the instances.
 */
class TwoInstancesMasterWithoutReplicaIT {

    static final String QUEUE = "failover";
    static final int SHARDS = 6;
    static final int DEGRADED_SECONDS = 60;
    static final int PRODUCERS = 8;
    /** Generous for two JVMs and six Redis nodes on a 2-core machine with one core busy; measured: a few ms. */
    static final long HEALTHY_P99_MILLIS = 1_000;
    /** 99 % of refusals, as the application measures its {@code schedule} call (the HTTP exchange adds its own time). */
    static final long FAIL_FAST_MILLIS = 100;
    /**
     * Every refusal: at once means without waiting for a replica, which takes the durability timeout (1 s); one call may
     * still be held up by a stall of the loaded machine.
     */
    static final long SLOWEST_REFUSAL_MILLIS = 500;
    /** The response header of {@code FailoverResource#schedule} with the call's duration in the application. */
    static final String TOOK_MICROS = "Schedule-Took-Micros";

    @Test
    void healthyShardsKeepGoingWhileAPromotedMasterHasNoReplica() throws Exception {
        LocalRedisCluster redis = new LocalRedisCluster(Path.of(RedisServerProcess.executable()), 1);
        redis.start();
        String hosts = redis.hosts();
        LocalCluster cluster = new LocalCluster(hosts);
        String[] properties = { "quarkus.redis.client-type=cluster", "quarkus.pacer.delayed.shards=" + SHARDS,
                "quarkus.pacer.delayed.durability=replicas" };
        try (AppInstance first = new AppInstance("degraded-first", hosts, properties);
                AppInstance second = new AppInstance("degraded-second", hosts, properties);
                BusyCore busy = BusyCore.start()) {
            run(cluster, List.of(first, second));
        } finally {
            cluster.close();
            redis.close();
        }
    }

    private void run(LocalCluster cluster, List<AppInstance> instances) throws Exception {
        int victim = cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, 0));
        int replica = cluster.replicaOf(victim).orElseThrow();
        Set<Integer> promotedShards = ClusterLoad.shardsOn(cluster, QUEUE, SHARDS, victim);
        assertThat(promotedShards).as("shards on the victim").isNotEmpty().hasSizeLessThan(SHARDS);

        EveryShardProducers producers = new EveryShardProducers(SHARDS, promotedShards);
        try {
            producers.start(PRODUCERS, (producer, id) -> {
                AppInstance.Answer answer = instances.get(producer % instances.size()).call("POST",
                        "/failover/schedule/" + id);
                long tookMicros = answer.longHeader(TOOK_MICROS);
                return answer.status() == 204 ? Outcome.acknowledged(tookMicros)
                        : new Outcome(tookMicros, answer.status() + " " + answer.body(), answer.status() == 503
                                && answer.body().startsWith(DurabilityUnavailableException.class.getName()));
            });
            ClusterLoad.eventually(() -> producers.acknowledged().size() >= 300);
            long healthyFrom = System.currentTimeMillis();
            ClusterLoad.eventually(() -> producers.acknowledged().size() >= 3_000);
            EveryShardProducers.Window before = producers.window(healthyFrom, System.currentTimeMillis());
            EveryShardProducers.Degraded degraded = producers.killAndRecover(cluster, victim, QUEUE, DEGRADED_SECONDS);
            producers.stop();

            Set<String> acknowledged = producers.acknowledged();
            Map<String, Long> receivedAt = new ConcurrentHashMap<>();
            boolean allDelivered = ClusterLoad.eventually(() -> ClusterLoad
                    .lost(TwoInstancesClusterFailoverIT.received(instances, receivedAt), acknowledged) == 0);
            Set<String> refusedButDelivered = new HashSet<>(producers.ids(Outcome::refused));
            refusedButDelivered.retainAll(receivedAt.keySet());
            // Delivered without an acknowledgement: only a call that failed after its script ran may have stored one.
            Set<String> deliveredUnacknowledged = new HashSet<>(receivedAt.keySet());
            deliveredUnacknowledged.removeAll(acknowledged);
            deliveredUnacknowledged.removeAll(producers.ids(outcome -> outcome.failed() && !outcome.refused()));
            System.out.printf("Two instances, durability=replicas, %d producers over %d shards (%d on the killed"
                    + " master), one core busy: replica promoted %d ms after the kill; before the kill: %s; %d s"
                    + " with the promoted master without replica: %s; acknowledged %d, delivered %d of them (lost %d),"
                    + " refused but delivered %d, delivered without acknowledgement or failure %d; the killed node back"
                    + " as replica: %s %d ms after it was in sync%n",
                    PRODUCERS, SHARDS, promotedShards.size(), degraded.promotedAfterMillis(), before.describe(),
                    DEGRADED_SECONDS, degraded.window().describe(), acknowledged.size(),
                    acknowledged.stream().filter(receivedAt::containsKey).count(),
                    ClusterLoad.lost(receivedAt, acknowledged), refusedButDelivered.size(),
                    deliveredUnacknowledged.size(),
                    degraded.recovered() ? "durable writes succeed again" : "durable writes still fail",
                    degraded.recoveredAfterMillis());

            assertThat(degraded.healthyFailedFromKill()).as("failed calls on healthy shards from the kill on").isEmpty();
            degraded.window().assertDegradedSteadyState("127.0.0.1:" + replica, HEALTHY_P99_MILLIS, FAIL_FAST_MILLIS,
                    SLOWEST_REFUSAL_MILLIS);
            assertThat(degraded.recovered()).as("durable writes to the promoted master's shards once it has a replica")
                    .isTrue();
            assertThat(allDelivered).as("every acknowledged message delivered, lost: "
                    + ClusterLoad.lost(receivedAt, acknowledged)).isTrue();
            assertThat(refusedButDelivered).as("refused (not stored) messages delivered").isEmpty();
            assertThat(deliveredUnacknowledged).as("messages delivered that no call may have stored").isEmpty();
        } finally {
            producers.stop();
        }
    }
}
