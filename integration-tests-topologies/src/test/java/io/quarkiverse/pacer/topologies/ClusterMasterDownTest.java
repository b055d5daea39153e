package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.devservices.common.RedisProcess;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.test.support.ClusterReshard;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.test.support.ThrottleCalls;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * On the local 3-master Redis Cluster (no replicas; {@code cluster-require-full-coverage no}, so the surviving masters
 * keep serving their slots), one master is shut down. Throttle decisions on the other masters' keys are all made by
 * Redis, exactly, with no fallback; a delay queue of 6 shards keeps scheduling and delivering on the shards of the
 * surviving masters; calls on the dead master's slots fail within their time budget. The dead master is the one the
 * consumers' wake-up subscription was on: it is subscribed again on a surviving master.
 */
class ClusterMasterDownTest {

    static final int LIMIT = 3;
    static final int CALLS_PER_KEY = 5;
    static final int SHARDS = 6;
    static final String QUEUE = "down";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, ThrottleCalls.class, Consumer.class, ClusterReshard.class,
                    RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
            .overrideConfigKey("quarkus.pacer.delayed.shards", Integer.toString(SHARDS));

    @Inject
    Api api;

    @Inject
    Consumer consumer;

    @Inject
    DelayedQueue queue;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    @Test
    void survivingMastersKeepDecidingAndDelivering() {
        assertThat(redis.routesBySlot()).isTrue();
        String hosts = ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class);
        ClusterReshard cluster = new ClusterReshard(hosts);
        List<Integer> masters = new ArrayList<>();
        for (String host : hosts.split(",")) {
            masters.add(RedisInfo.portOf(host.trim()));
        }
        // The master that carries the consumers' wake-up subscription is the one that dies.
        await().atMost(Duration.ofSeconds(30)).until(() -> subscribedOn(masters) != null);
        int dead = subscribedOn(masters);
        Set<Integer> liveShards = new HashSet<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            if (cluster.ownerOf(cluster.slotOf("{" + QUEUE + "#" + shard + "}")) != dead) {
                liveShards.add(shard);
            }
        }
        assertThat(liveShards).as("shards on the surviving masters").isNotEmpty().hasSizeLessThan(SHARDS);
        List<String> liveIds = new ArrayList<>();
        String deadId = null;
        for (int i = 0; liveIds.size() < 60 || deadId == null; i++) {
            String id = "m-" + i;
            if (liveShards.contains(Math.floorMod(id.hashCode(), SHARDS))) {
                liveIds.add(id);
            } else if (deadId == null) {
                deadId = id;
            }
        }
        List<String> liveKeys = new ArrayList<>();
        String deadKey = null;
        for (int i = 0; liveKeys.size() < 12 || deadKey == null; i++) {
            String key = "k-" + i;
            if (cluster.ownerOf(cluster.slotOf(ThrottleCalls.redisKey("down", key))) != dead) {
                liveKeys.add(key);
            } else if (deadKey == null) {
                deadKey = key;
            }
        }
        // Redis Cluster's default stops every slot once one has no master; Pacer must not.
        for (int port : masters) {
            RedisProcess.command(port, "CONFIG", "SET", "cluster-require-full-coverage", "no");
        }
        queue.scheduleWithId(QUEUE, "before", "before", Duration.ZERO);
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received.contains("before"));

        shutDown(dead);
        masters.remove(Integer.valueOf(dead));

        for (String id : liveIds.subList(0, 30)) {
            queue.scheduleWithId(QUEUE, id, id, Duration.ZERO);
        }
        for (String key : liveKeys) {
            int admitted = 0;
            for (int call = 0; call < CALLS_PER_KEY; call++) {
                admitted += ThrottleCalls.admitted(() -> api.call(key)) ? 1 : 0;
            }
            assertThat(admitted).as("admitted on " + key).isEqualTo(LIMIT);
        }
        assertThat(engine.fallbackDecisions()).as("fallbacks on surviving slots").isZero();

        // The dead master's slots fail within their budget, and only they do.
        String onDeadMaster = deadKey;
        ThrottleCalls.admitted(() -> api.call(onDeadMaster));
        assertThat(engine.fallbackDecisions()).isEqualTo(1);
        String deadMessage = deadId;
        assertThatThrownBy(() -> queue.scheduleWithId(QUEUE, deadMessage, deadMessage, Duration.ZERO))
                .hasMessageContaining("Redis");

        for (String id : liveIds.subList(30, 60)) {
            queue.scheduleWithId(QUEUE, id, id, Duration.ZERO);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received.containsAll(liveIds));
        assertThat(consumer.received).doesNotContain(deadId);
        // The wake-ups were subscribed again, on a surviving master (PUBLISH reaches every node's subscribers).
        await().atMost(Duration.ofSeconds(30)).until(() -> subscribedOn(masters) != null);
    }

    /** The master on which a wake-up channel of the queue has a subscriber, or {@code null}. */
    private static Integer subscribedOn(List<Integer> masters) {
        for (int port : masters) {
            if (!RedisProcess.command(port, "PUBSUB", "CHANNELS", "pacer:d:*").isBlank()) {
                return port;
            }
        }
        return null;
    }

    private static void shutDown(int port) {
        try {
            RedisProcess.command(port, "SHUTDOWN", "NOSAVE");
        } catch (IllegalStateException expected) {
            // The node closes the connection instead of answering.
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            try {
                RedisProcess.command(port, "PING");
                return false;
            } catch (IllegalStateException gone) {
                return true;
            }
        });
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "down", limit = LIMIT, window = "1d")
        public void call(@ThrottleKey String key) {
        }
    }

    @Singleton
    public static class Consumer {
        final Set<String> received = ConcurrentHashMap.newKeySet();

        @Delayed(QUEUE)
        void on(String id) {
            received.add(id);
        }
    }
}
