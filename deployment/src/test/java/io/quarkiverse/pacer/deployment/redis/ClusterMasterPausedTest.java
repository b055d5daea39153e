package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.ClusterReshard;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.deployment.support.ThrottleCalls;
import io.quarkiverse.pacer.runtime.devservices.RedisProcess;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * On the local 3-master Redis Cluster, one master stops answering Pacer's scripts ({@code CLIENT PAUSE ... WRITE}: its
 * clients' scripts wait, while the cluster bus and {@code CLUSTER SHARDS} go on, so the cluster stays up) while callers
 * keep many decisions queued for it. Decisions on keys of the two other masters are all made by Redis, exactly, with
 * no error: the paused master's queue neither blocks nor delays them. Once the master answers again, its keys are
 * decided by Redis again, without a restart.
 */
class ClusterMasterPausedTest {

    static final int LIMIT = 3;
    static final int CALLS_PER_KEY = 5;
    static final int HEALTHY_KEYS = 12;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, ThrottleCalls.class, ClusterReshard.class, RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster");

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    @Test
    void otherMastersDecideExactlyWhileOneIsStuck() throws Exception {
        assertThat(redis.routesBySlot()).isTrue();
        ClusterReshard cluster = new ClusterReshard(
                ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class));
        int paused = cluster.ownerOf(cluster.slotOf(ThrottleCalls.redisKey("paused", "stuck-0")));
        List<String> stuckKeys = new ArrayList<>();
        List<String> healthyKeys = new ArrayList<>();
        Set<Integer> healthyMasters = new HashSet<>();
        for (int i = 0; healthyKeys.size() < HEALTHY_KEYS || stuckKeys.size() < 4; i++) {
            String key = "k-" + i;
            int owner = cluster.ownerOf(cluster.slotOf(ThrottleCalls.redisKey("paused", key)));
            if (owner == paused) {
                stuckKeys.add(key);
            } else if (healthyKeys.size() < HEALTHY_KEYS) {
                healthyKeys.add(key);
                healthyMasters.add(owner);
            }
        }
        assertThat(healthyMasters).as("keys on both other masters").hasSize(2).doesNotContain(paused);
        // Every master's connection is open before the pause.
        for (String key : stuckKeys) {
            api.call(key);
        }
        assertThat(engine.fallbackDecisions()).isZero();

        RedisProcess.command(paused, "CLIENT", "PAUSE", "60000", "WRITE");
        ExecutorService pool = Executors.newFixedThreadPool(stuckKeys.size());
        AtomicBoolean healthyDone = new AtomicBoolean();
        AtomicInteger stuckCalls = new AtomicInteger();
        try {
            List<Future<?>> stuck = new ArrayList<>();
            for (String key : stuckKeys) {
                stuck.add(pool.submit(() -> {
                    while (!healthyDone.get()) {
                        ThrottleCalls.admitted(() -> api.call(key));
                        stuckCalls.incrementAndGet();
                    }
                }));
            }
            // The paused master is really stuck: its decisions fall back (on-redis-failure=allow).
            await().atMost(Duration.ofSeconds(30)).until(() -> engine.fallbackDecisions() >= stuckKeys.size());

            for (String key : healthyKeys) {
                int admitted = 0;
                for (int call = 0; call < CALLS_PER_KEY; call++) {
                    admitted += ThrottleCalls.admitted(() -> api.call(key)) ? 1 : 0;
                }
                // A fallback would admit all 5 calls: exactly 3 means Redis decided every one.
                assertThat(admitted).as("admitted on " + key).isEqualTo(LIMIT);
            }
            long fallbacksWhilePaused = engine.fallbackDecisions();
            healthyDone.set(true);
            for (Future<?> caller : stuck) {
                caller.get(30, TimeUnit.SECONDS);
            }
            assertThat(stuckCalls.get()).isGreaterThanOrEqualTo(stuckKeys.size());
            assertThat(fallbacksWhilePaused).as("fallbacks: the stuck master's calls only")
                    .isLessThanOrEqualTo(stuckCalls.get());
        } finally {
            healthyDone.set(true);
            pool.shutdownNow();
            RedisProcess.command(paused, "CLIENT", "UNPAUSE");
        }

        // The paused master decides again, by itself.
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            long before = engine.fallbackDecisions();
            ThrottleCalls.admitted(() -> api.call(stuckKeys.get(0)));
            return engine.fallbackDecisions() == before;
        });
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "paused", limit = LIMIT, window = "1d")
        public void call(@ThrottleKey String key) {
        }
    }
}
