package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.support.ClusterLoad;
import io.quarkiverse.pacer.test.support.LocalCluster;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A 3-master Redis Cluster without replicas (Dev Services): one master is killed ({@code kill -9}) while a queue of 6
 * shards is produced and consumed and keys are throttled. Its slots fail within the time budget (throttling falls back,
 * {@code schedule} throws); every other slot is decided and stored by Redis with no fallback and no error; when the
 * master is started again (empty, same cluster identity) its slots work again without restarting the application.
 */
class ClusterMasterWithoutReplicaTest extends ClusterFailureTestBase {

    private static final Logger LOG = Logger.getLogger(ClusterMasterWithoutReplicaTest.class);
    /** Four budgets of {@code quarkus.pacer.throttle.timeout} (250 ms), plus room for a busy machine. */
    static final long THROTTLE_FALLBACK_MILLIS = 4 * 250 + 500;
    /** Four budgets of {@code quarkus.pacer.redis.timeout} (5 s), plus room for a busy machine. */
    static final long SCHEDULE_FAILURE_MILLIS = 4 * 5_000 + 2_000;

    @RegisterExtension
    static final QuarkusUnitTest config = application(0);

    @Test
    void onlyTheDeadMastersSlotsFailAndTheyRecoverWhenItIsBack() throws Exception {
        LocalCluster cluster = cluster();
        int victim = cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, 0));
        assertThat(cluster.replicaOf(victim)).as("no replica").isEmpty();
        Path[] executableAndDirectory = cluster.executableAndDirectory(victim);
        Set<Integer> victimShards = ClusterLoad.shardsOn(cluster, QUEUE, SHARDS, victim);
        List<String> survivingKeys = ClusterLoad.throttleKeys(cluster, "probe", 20, port -> port != victim);
        String victimKey = ClusterLoad.throttleKeys(cluster, "probe", 1, port -> port == victim).get(0);
        String victimShardId = idOnShard(victimShards);

        ClusterLoad load = new ClusterLoad(SHARDS, victimShards);
        load.start(2, id -> queue.scheduleWithId(QUEUE, id, id, Duration.ofMillis(500)), Duration.ofMillis(500));
        ClusterLoad.Prober prober = load.startProber(api::probe, survivingKeys);
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> load.acknowledged() >= 300);
            cluster.kill(victim);
            // Down for good: every survivor flags it failed and refuses its slots.
            cluster.awaitSeenFailed(victim);
            int probesAtFailed = prober.calls();
            int healthyAtFailed = load.acknowledged() - load.acknowledgedOnVictim();
            boolean survivorsGoOn = ClusterLoad.eventually(() -> prober.calls() >= probesAtFailed + 100
                    && load.acknowledged() - load.acknowledgedOnVictim() >= healthyAtFailed + 100);
            long fallbacksOnSurvivingSlots = engine.fallbackDecisions();
            int failedOnHealthyShards = load.failedOnHealthyShards();

            long started = System.nanoTime();
            api.probe(victimKey); // on-redis-failure=allow
            long fallbackMillis = (System.nanoTime() - started) / 1_000_000;
            long fallbacksOnTheDeadSlot = engine.fallbackDecisions() - fallbacksOnSurvivingSlots;
            started = System.nanoTime();
            assertThatThrownBy(() -> queue.scheduleWithId(QUEUE, victimShardId, victimShardId, Duration.ofSeconds(1)))
                    .as("schedule on the dead master's shard").isInstanceOf(RuntimeException.class);
            long scheduleFailureMillis = (System.nanoTime() - started) / 1_000_000;

            cluster.restart(victim, executableAndDirectory[0], executableAndDirectory[1]);
            cluster.awaitHealthy();
            int victimAcknowledgedAtRestart = load.acknowledgedOnVictim();
            boolean victimShardsBack = ClusterLoad.eventually(
                    () -> load.acknowledgedOnVictim() >= victimAcknowledgedAtRestart + 50);
            load.stop();
            Set<String> healthy = load.acknowledgedOnHealthyShards();
            boolean healthyDelivered = ClusterLoad.eventually(() -> ClusterLoad.lost(consumer.receivedAt, healthy) == 0);
            LOG.infof("Cluster master without replica killed: surviving slots: %d probes, %d fell back, %d errors, %d"
                    + " failed schedules, %d acknowledged messages lost; the dead slot: fallback after %d ms,"
                    + " schedule failed after %d ms", prober.calls(), fallbacksOnSurvivingSlots, prober.errors(),
                    failedOnHealthyShards, ClusterLoad.lost(consumer.receivedAt, healthy), fallbackMillis,
                    scheduleFailureMillis);

            assertThat(survivorsGoOn).as("decisions and schedules on surviving slots go on while the master is down")
                    .isTrue();
            assertThat(failedOnHealthyShards).as("failed schedules on surviving masters' shards; last: "
                    + load.lastFailure()).isZero();
            assertThat(prober.errors()).as("throttle errors on surviving slots: " + prober.lastError()).isZero();
            assertThat(fallbacksOnSurvivingSlots).as("fallback decisions on surviving slots").isZero();
            assertThat(fallbacksOnTheDeadSlot).as("the dead slot's decision fell back").isEqualTo(1);
            assertThat(fallbackMillis).as("fallback within four throttle budgets").isLessThan(THROTTLE_FALLBACK_MILLIS);
            assertThat(scheduleFailureMillis).as("schedule failure within four budgets")
                    .isLessThan(SCHEDULE_FAILURE_MILLIS);
            assertThat(victimShardsBack).as("schedules succeed on the restarted master's shards; last failure: "
                    + load.lastFailure()).isTrue();
            assertThat(healthyDelivered).as("every acknowledged message of the surviving shards delivered").isTrue();

            long fallbacksBefore = engine.fallbackDecisions();
            String restartedKey = ClusterLoad.throttleKeys(cluster, "exact", 1, port -> port == victim).get(0);
            assertThat(admitted(restartedKey)).as("exact on the restarted master").isEqualTo(5);
            assertThat(engine.fallbackDecisions()).as("no fallback after the restart").isEqualTo(fallbacksBefore);
        } finally {
            load.stop();
            cluster.close();
        }
    }

    /** An id whose message goes to one of {@code shards}. */
    private static String idOnShard(Set<Integer> shards) {
        Set<Integer> wanted = new HashSet<>(shards);
        for (int i = 0;; i++) {
            String id = "dead-shard-" + i;
            if (wanted.contains(ClusterLoad.shardOf(id, SHARDS))) {
                return id;
            }
        }
    }
}
