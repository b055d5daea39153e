package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.ClusterReshard;
import io.quarkiverse.pacer.deployment.support.LocalCluster;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.deployment.support.ThrottleCalls;
import io.quarkiverse.pacer.runtime.devservices.RedisProcess;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code on-redis-failure=local} on Redis Cluster with one master down: the dead master's key is limited in memory
 * while the surviving masters keep answering for theirs. Their answers must not reset the dead key's in-memory state
 * (before, any decision Redis made forgot every local state, so the dead key was admitted on every call).
 */
class ClusterMasterDownLocalFallbackTest {

    static final int LIMIT = 3;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, ThrottleCalls.class, ClusterReshard.class,
                    RedisInfo.class, LocalCluster.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "local");

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Test
    void survivingMastersAnswersKeepTheDeadKeysLocalLimit() {
        String hosts = ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class);
        ClusterReshard cluster = new ClusterReshard(hosts);
        List<Integer> masters = new ArrayList<>();
        for (String host : hosts.split(",")) {
            masters.add(RedisInfo.portOf(host.trim()));
        }
        String deadKey = "k-dead";
        int dead = cluster.ownerOf(cluster.slotOf(ThrottleCalls.redisKey("local-down", deadKey)));
        List<String> liveKeys = new ArrayList<>();
        for (int i = 0; liveKeys.size() < 2 * LIMIT + 2; i++) {
            String key = "k-" + i;
            if (cluster.ownerOf(cluster.slotOf(ThrottleCalls.redisKey("local-down", key))) != dead) {
                liveKeys.add(key);
            }
        }
        for (int port : masters) {
            RedisProcess.command(port, "CONFIG", "SET", "cluster-require-full-coverage", "no");
        }
        // Every master answered once, so the router knows them all before one dies.
        assertThat(ThrottleCalls.admitted(() -> api.call(liveKeys.get(0)))).isTrue();
        assertThat(engine.fallbackDecisions()).isZero();

        new LocalCluster(hosts).kill(dead);

        int admittedOnDeadKey = 0;
        for (int call = 0; call < 2 * LIMIT; call++) {
            admittedOnDeadKey += ThrottleCalls.admitted(() -> api.call(deadKey)) ? 1 : 0;
            // Between two local decisions, one Redis makes on a surviving master (a fresh key: admitted).
            String live = liveKeys.get(2 + call);
            assertThat(ThrottleCalls.admitted(() -> api.call(live))).as("admitted on " + live).isTrue();
        }
        assertThat(admittedOnDeadKey).as("admitted in memory on the dead master's key").isEqualTo(LIMIT);
        assertThat(engine.fallbackDecisions()).as("only the dead key's calls fell back").isEqualTo(2L * LIMIT);
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "local-down", limit = LIMIT, window = "1d")
        public void call(@ThrottleKey String key) {
        }
    }
}
