package io.quarkiverse.pacer.deployment.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.deployment.support.ClusterLoad;
import io.quarkiverse.pacer.deployment.support.LocalCluster;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * What the tests that fail a master of the local Redis Cluster share: an application with a sharded queue whose
 * consumer records when each message arrived, a throttled probe (every call admitted) and an exactly limited method.
 */
abstract class ClusterFailureTestBase {

    static final String QUEUE = "failover";
    static final int SHARDS = 6;

    /**
     * Pacer's Dev Services cluster with {@code replicas} per master and a queue of {@value #SHARDS} shards;
     * {@code classes}: the test's own superclasses, if any.
     */
    static QuarkusUnitTest application(int replicas, Class<?>... classes) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(Consumer.class, Api.class, ClusterFailureTestBase.class,
                        LocalCluster.class, ClusterLoad.class, RedisInfo.class).addClasses(classes))
                .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
                .overrideConfigKey("quarkus.pacer.devservices.cluster-replicas", Integer.toString(replicas))
                .overrideConfigKey("quarkus.pacer.delayed.shards", Integer.toString(SHARDS));
    }

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

    static LocalCluster cluster() {
        return new LocalCluster(ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class));
    }

    /** How many of 10 calls on a fresh key of the policy {@code exact} (limit 5) are admitted. */
    int admitted(String key) {
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
