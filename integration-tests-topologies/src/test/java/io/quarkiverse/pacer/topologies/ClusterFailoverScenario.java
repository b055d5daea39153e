package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import io.quarkiverse.pacer.test.support.ClusterLoad;
import io.quarkiverse.pacer.test.support.LocalCluster;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A 3-master Redis Cluster with one replica per master (Dev Services, {@code cluster-node-timeout 2000}); a queue of 6
 * shards is produced and consumed and keys are throttled while one master is killed ({@code kill -9}) and its replica
 * takes over. Calls whose slots live on the surviving masters see no fallback and no error, and their messages are not
 * late; every message whose {@code schedule} returned is delivered; the promoted replica's slots work again without a
 * restart, and limits are exact afterwards. The subclasses choose {@code quarkus.pacer.delayed.durability}.
 */
abstract class ClusterFailoverScenario extends ClusterFailureTestBase {

    private static final Logger LOG = Logger.getLogger(ClusterFailoverScenario.class);
    /** Messages are due this long after their schedule: the lateness of healthy shards is measured against it. */
    static final Duration DELAY = Duration.ofMillis(500);
    /** Generous for a busy 2-core machine, yet below what one master's failover takes (node timeout 2 s + election). */
    static final long HEALTHY_LATENESS_P99_MILLIS = 1_500;

    static QuarkusUnitTest application(String durability) {
        return application(1, ClusterFailoverScenario.class).overrideConfigKey("quarkus.pacer.delayed.durability", durability);
    }

    /** Whether the test holds writes and lets the replica catch up before the kill ({@code durability=primary}). */
    abstract boolean syncReplicaBeforeKill();

    abstract String durability();

    @Test
    void survivingSlotsDoNotNoticeAMasterFailover() throws Exception {
        LocalCluster cluster = cluster();
        int victim = cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, 0));
        int replica = cluster.replicaOf(victim).orElseThrow();
        Path[] executableAndDirectory = cluster.executableAndDirectory(victim);
        Set<Integer> victimShards = ClusterLoad.shardsOn(cluster, QUEUE, SHARDS, victim);
        List<String> survivingKeys = ClusterLoad.throttleKeys(cluster, "probe", 20, port -> port != victim);
        assertThat(victimShards).as("shards on the victim").isNotEmpty().hasSizeLessThan(SHARDS);

        ClusterLoad load = new ClusterLoad(SHARDS, victimShards);
        load.start(2, id -> queue.scheduleWithId(QUEUE, id, id, DELAY), DELAY);
        ClusterLoad.Prober prober = load.startProber(api::probe, survivingKeys);
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> load.acknowledged() >= 300);
            if (syncReplicaBeforeKill()) {
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
            long fallbacksDuringFailover = engine.fallbackDecisions();
            // The killed master comes back as the promoted one's replica (with durability=replicas, the promoted
            // master's shards need one); its shards take messages again, without restarting the application.
            cluster.restart(victim, executableAndDirectory[0], executableAndDirectory[1]);
            cluster.awaitHealthy();
            cluster.awaitReplicated(replica);
            int victimAcknowledgedAtFailover = load.acknowledgedOnVictim();
            boolean victimShardsBack = ClusterLoad.eventually(
                    () -> load.acknowledgedOnVictim() >= victimAcknowledgedAtFailover + 50);
            load.stop();
            boolean allDelivered = ClusterLoad.eventually(() -> load.lost(consumer.receivedAt) == 0);
            long p99 = load.healthyLatenessPercentile(consumer.receivedAt, killedAt, failedOverAt, 99);
            LOG.infof("Cluster failover, durability=%s: replica promoted %d ms after the kill; schedule calls: %d"
                    + " acknowledged, %d failed (%d of them delivered all the same), %d of them on surviving masters' shards; throttle probes on surviving"
                    + " slots during the failover: %d, of which %d fell back, and %d errors; acknowledged messages"
                    + " lost: %d; lateness p99 of the %d surviving shards' messages due during the failover: %d ms",
                    durability(), failedOverAt - killedAt, load.acknowledged(), load.failed(),
                    load.failedButDelivered(consumer.receivedAt),
                    load.failedOnHealthyShards(), probesDuringFailover, fallbacksDuringFailover, prober.errors(),
                    load.lost(consumer.receivedAt), load.healthyDueBetween(killedAt, failedOverAt), p99);

            assertThat(load.failedOnHealthyShards()).as("failed schedules on surviving masters' shards; last: "
                    + load.lastFailure()).isZero();
            assertThat(prober.errors()).as("throttle errors on surviving slots: " + prober.lastError()).isZero();
            assertThat(fallbacksDuringFailover).as("fallback decisions on surviving slots").isZero();
            assertThat(probesDuringFailover).as("probes decided during the failover").isPositive();
            assertThat(victimShardsBack).as("schedules succeed on the promoted replica's shards; last failure: "
                    + load.lastFailure()).isTrue();
            assertThat(allDelivered).as("every acknowledged message delivered, lost: " + load.lost(consumer.receivedAt))
                    .isTrue();
            assertThat(load.healthyDueBetween(killedAt, failedOverAt)).as("healthy messages due during the failover")
                    .isPositive();
            assertThat(p99).as("lateness p99 (ms) of healthy shards' messages due during the failover")
                    .isLessThan(HEALTHY_LATENESS_P99_MILLIS);

            assertThat(cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, victimShards.iterator().next())))
                    .as("the replica took over").isEqualTo(replica);
            String promotedKey = ClusterLoad.throttleKeys(cluster, "exact", 1, port -> port == replica).get(0);
            String survivingKey = ClusterLoad.throttleKeys(cluster, "exact", 1, port -> port != replica).get(0);
            assertThat(admitted(promotedKey)).as("exact on the promoted replica").isEqualTo(5);
            assertThat(admitted(survivingKey)).as("exact on a surviving master").isEqualTo(5);
            assertThat(engine.fallbackDecisions()).as("fallback decisions after the failover").isZero();
        } finally {
            load.stop();
            cluster.close();
        }
    }
}
