package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;

/**
 * Pacer's pub/sub connections (throttle resets, limit overrides, delay-queue wake-ups) are its own, not the
 * application's: with Quarkus's default pool ({@code quarkus.redis.max-pool-size=6}) the application can still hold
 * all six of its pooled connections at once while Pacer is subscribed.
 */
class PacerPubSubOwnConnectionsTest {

    static final int DEFAULT_POOL_SIZE = 6;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RedisInfo.class, Api.class, Consumer.class));

    @Singleton
    static class Api {
        @Throttled(name = "pubsub", limit = 10, window = "1h")
        String call() {
            return "ok";
        }
    }

    @Singleton
    static class Consumer {
        @Delayed("pubsub-queue")
        void on(String payload) {
        }
    }

    @Inject
    Api api;

    @Inject
    PacerRedis pacer;

    @Inject
    Redis application;

    @Test
    void theApplicationKeepsItsWholePool() throws Exception {
        assertThat(api.call()).isEqualTo("ok");
        // Pacer's subscriptions are open: three pub/sub connections in Redis.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> RedisInfo.subscribedConnections(pacer) >= 3);

        List<RedisConnection> held = new ArrayList<>();
        try {
            for (int i = 0; i < DEFAULT_POOL_SIZE; i++) {
                held.add(application.connect().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS));
            }
            assertThat(held).hasSize(DEFAULT_POOL_SIZE);
        } finally {
            held.forEach(RedisConnection::close);
        }
    }
}
