package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkiverse.pacer.test.support.BusyCore;
import io.quarkiverse.pacer.test.support.ClusterLoad;
import io.quarkiverse.pacer.test.support.EveryShardProducers;
import io.quarkiverse.pacer.test.support.EveryShardProducers.Outcome;
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
    static final QuarkusUnitTest config = application(1, ClusterMasterWithoutReplicaDurabilityTest.class,
            EveryShardProducers.class, BusyCore.class)
            .overrideConfigKey("quarkus.pacer.delayed.durability", "replicas");

    @Test
    void healthyShardsKeepGoingWhileAPromotedMasterHasNoReplica() throws Exception {
        LocalCluster cluster = cluster();
        int victim = cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, 0));
        int replica = cluster.replicaOf(victim).orElseThrow();
        Set<Integer> promotedShards = ClusterLoad.shardsOn(cluster, QUEUE, SHARDS, victim);
        assertThat(promotedShards).as("shards on the victim").isNotEmpty().hasSizeLessThan(SHARDS);

        EveryShardProducers producers = new EveryShardProducers(SHARDS, promotedShards);
        try (BusyCore busy = BusyCore.start()) {
            producers.start(PRODUCERS, (producer, id) -> {
                long start = System.nanoTime();
                try {
                    queue.scheduleWithId(QUEUE, id, id, Duration.ofMillis(200));
                    return Outcome.acknowledged(micros(start));
                } catch (RuntimeException e) {
                    return new Outcome(micros(start), e.toString(), e instanceof DurabilityUnavailableException);
                }
            });
            ClusterLoad.eventually(() -> producers.acknowledged().size() >= 300);
            EveryShardProducers.Degraded degraded = producers.killAndRecover(cluster, victim, QUEUE, DEGRADED_SECONDS);
            producers.stop();
            Set<String> acknowledged = producers.acknowledged();
            boolean allDelivered = ClusterLoad.eventually(
                    () -> ClusterLoad.lost(consumer.receivedAt, acknowledged) == 0);
            long refusedButDelivered = producers.ids(Outcome::refused).stream().filter(consumer.receivedAt::containsKey)
                    .count();
            LOG.infof("durability=replicas, %d s with a promoted master without replica, %d producers over %d shards"
                    + " (%d on it): %s; acknowledged %d, lost %d; refused but delivered %d; after the old master came"
                    + " back as replica: %s", DEGRADED_SECONDS, PRODUCERS, SHARDS, promotedShards.size(),
                    degraded.window().describe(), acknowledged.size(), ClusterLoad.lost(consumer.receivedAt, acknowledged),
                    refusedButDelivered, degraded.recovered() ? "durable writes succeed again" : "durable writes still fail");

            assertThat(degraded.healthyFailedFromKill()).as("failed calls on healthy shards from the kill on").isEmpty();
            degraded.window().assertDegradedSteadyState("127.0.0.1:" + replica, HEALTHY_P99_MILLIS, FAIL_FAST_P99_MILLIS,
                    FAIL_FAST_MAX_MILLIS);
            assertThat(degraded.recovered()).as("durable writes to the promoted master's shards once it has a replica")
                    .isTrue();
            assertThat(allDelivered).as("every acknowledged message delivered, lost: "
                    + ClusterLoad.lost(consumer.receivedAt, acknowledged)).isTrue();
            assertThat(refusedButDelivered).as("refused (not stored) messages delivered").isZero();
        } finally {
            producers.stop();
            cluster.close();
        }
    }

    private static long micros(long startNanos) {
        return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNanos);
    }
}
