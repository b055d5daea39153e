package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.deployment.support.ClusterLoad;
import io.quarkiverse.pacer.deployment.support.LocalCluster;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.runtime.throttle.ThrottleEngine;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A 3-master Redis Cluster without replicas (Dev Services): one master is killed ({@code kill -9}) while a queue of 6
 * shards is produced and consumed and keys are throttled. Its slots fail within the time budget (throttling falls back,
 * {@code schedule} throws); every other slot is decided and stored by Redis with no fallback and no error; when the
 * master is started again (empty, same cluster identity) its slots work again without restarting the application.
 */
class ClusterMasterWithoutReplicaTest {

    private static final Logger LOG = Logger.getLogger(ClusterMasterWithoutReplicaTest.class);
    static final String QUEUE = "no-replica";
    static final int SHARDS = 6;
    /** Four budgets of {@code quarkus.pacer.throttle.timeout} (250 ms), plus room for a busy machine. */
    static final long THROTTLE_FALLBACK_MILLIS = 4 * 250 + 500;
    /** Four budgets of {@code quarkus.pacer.redis.timeout} (5 s), plus room for a busy machine. */
    static final long SCHEDULE_FAILURE_MILLIS = 4 * 5_000 + 2_000;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, Api.class, LocalCluster.class,
                    ClusterLoad.class, RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
            .overrideConfigKey("quarkus.pacer.delayed.shards", Integer.toString(SHARDS));

    @Singleton
    static class Consumer {
        final Map<String, Long> receivedAt = new ConcurrentHashMap<>();

        @Delayed(value = QUEUE, concurrency = 8)
        void on(String id) {
            receivedAt.putIfAbsent(id, System.currentTimeMillis());
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "probe", limit = 1_000_000, window = "1m")
        public void probe(@ThrottleKey String key) {
        }

        @Throttled(name = "exact", limit = 5, window = "1d")
        public void exact(@ThrottleKey String key) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Test
    void onlyTheDeadMastersSlotsFailAndTheyRecoverWhenItIsBack() throws Exception {
        LocalCluster cluster = new LocalCluster(ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class));
        int victim = cluster.masterOfKey(ClusterLoad.dueKey(QUEUE, 0));
        assertThat(cluster.replicaOf(victim)).as("no replica").isEmpty();
        Path[] executableAndDirectory = cluster.executableAndDirectory(victim);
        Set<Integer> victimShards = ClusterLoad.shardsOn(cluster, QUEUE, SHARDS, victim);
        List<String> survivingKeys = ClusterLoad.throttleKeys(cluster, "probe", 20, port -> port != victim);
        String victimKey = ClusterLoad.throttleKeys(cluster, "probe", 1, port -> port == victim).get(0);
        String victimShardId = idOnShard(victimShards);

        ClusterLoad load = new ClusterLoad(SHARDS, victimShards);
        AtomicInteger probes = new AtomicInteger();
        AtomicInteger probeErrors = new AtomicInteger();
        AtomicReference<String> probeError = new AtomicReference<>();
        load.start(2, id -> queue.schedule(QUEUE, id, id, Duration.ofMillis(500)), Duration.ofMillis(500));
        load.startThread("prober", i -> {
            try {
                api.probe(survivingKeys.get(i % survivingKeys.size()));
                probes.incrementAndGet();
            } catch (RuntimeException e) {
                probeErrors.incrementAndGet();
                probeError.set(e.toString());
            }
        });
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> load.acknowledged() >= 300);
            cluster.kill(victim);
            // Down for good: every survivor flags it failed and refuses its slots.
            cluster.awaitSeenFailed(victim);
            int probesAtFailed = probes.get();
            int healthyAtFailed = load.acknowledged() - load.acknowledgedOnVictim();
            boolean survivorsGoOn = ClusterLoad.eventually(() -> probes.get() >= probesAtFailed + 100
                    && load.acknowledged() - load.acknowledgedOnVictim() >= healthyAtFailed + 100);
            long fallbacksOnSurvivingSlots = engine.fallbackDecisions();
            int failedOnHealthyShards = load.failedOnHealthyShards();

            long started = System.nanoTime();
            api.probe(victimKey); // on-redis-failure=allow
            long fallbackMillis = (System.nanoTime() - started) / 1_000_000;
            long fallbacksOnTheDeadSlot = engine.fallbackDecisions() - fallbacksOnSurvivingSlots;
            started = System.nanoTime();
            assertThatThrownBy(() -> queue.schedule(QUEUE, victimShardId, victimShardId, Duration.ofSeconds(1)))
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
                    + " schedule failed after %d ms", probes.get(), fallbacksOnSurvivingSlots, probeErrors.get(),
                    failedOnHealthyShards, ClusterLoad.lost(consumer.receivedAt, healthy), fallbackMillis,
                    scheduleFailureMillis);

            assertThat(survivorsGoOn).as("decisions and schedules on surviving slots go on while the master is down")
                    .isTrue();
            assertThat(failedOnHealthyShards).as("failed schedules on surviving masters' shards; last: "
                    + load.lastFailure()).isZero();
            assertThat(probeErrors.get()).as("throttle errors on surviving slots: " + probeError.get()).isZero();
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

    private int admitted(String key) {
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            try {
                api.exact(key);
                admitted++;
            } catch (ThrottledException rejected) {
                // counted by difference
            }
        }
        return admitted;
    }
}
