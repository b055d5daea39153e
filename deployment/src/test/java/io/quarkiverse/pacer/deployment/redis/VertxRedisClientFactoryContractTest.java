package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.proxy.ProxyConfigurationRegistry;
import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.quarkus.redis.runtime.client.VertxRedisClientFactory;
import io.quarkus.redis.runtime.client.config.RedisClientConfig;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * Pacer builds its own Redis client with {@code io.quarkus.redis.runtime.client.VertxRedisClientFactory}, an internal
 * class of {@code quarkus-redis-client}. This test fails when what Pacer relies on changes: the signature of
 * {@code create(...)}, and that it calls the {@link RedisOptionsCustomizer} beans, through which Pacer names its pool
 * {@code pacer-<client>}, sizes it and keeps its commands out of the Redis client spans.
 */
class VertxRedisClientFactoryContractTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RedisInfo.class, LastCustomizer.class));

    /** Sees each client's options after every other customizer (the lowest priority is called last). */
    @Singleton
    @Priority(Integer.MIN_VALUE)
    static class LastCustomizer implements RedisOptionsCustomizer {

        static final List<RedisOptions> BUILT = new CopyOnWriteArrayList<>();

        @Override
        public void customize(String clientName, RedisOptions options) {
            BUILT.add(new RedisOptions(options));
        }
    }

    @Inject
    PacerRedis pacer;

    @Test
    void createHasTheSignaturePacerCalls() throws NoSuchMethodException {
        Method create = VertxRedisClientFactory.class.getMethod("create", String.class, Vertx.class,
                RedisClientConfig.class, TlsConfigurationRegistry.class, ProxyConfigurationRegistry.class);
        assertThat(Modifier.isStatic(create.getModifiers())).isTrue();
        assertThat(create.getReturnType()).isEqualTo(Redis.class);
    }

    @Test
    void pacersOwnClientIsBuiltThroughTheCustomizers() {
        // the first command makes Pacer build its client
        assertThat(RedisInfo.info(pacer, "server")).contains("redis_version:");

        assertThat(LastCustomizer.BUILT).filteredOn(options -> "pacer-<default>".equals(options.getPoolName()))
                .singleElement()
                .satisfies(options -> {
                    assertThat(options.getTracingPolicy()).isEqualTo(TracingPolicy.IGNORE);
                    assertThat(options.getNetClientOptions().getMetricsName()).isEqualTo("redis|pacer-<default>");
                });
        assertThat(LastCustomizer.BUILT).extracting(RedisOptions::getPoolName).as("the application's client")
                .contains("<default>");
    }
}
