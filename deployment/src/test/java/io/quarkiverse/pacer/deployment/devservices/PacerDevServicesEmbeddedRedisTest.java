package io.quarkiverse.pacer.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.LogMessages;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.pacer.devservices.redis-server=embedded}: Pacer runs the Redis 6.2 {@code redis-server} shipped in
 * {@code com.github.codemonstur:embedded-redis}, whatever is on the {@code PATH}, and says so in one INFO line.
 */
class PacerDevServicesEmbeddedRedisTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.devservices.redis-server", "embedded")
            // where a container runtime works, the Redis client would start a container as well
            .overrideConfigKey("quarkus.redis.devservices.enabled", "false")
            .setLogRecordPredicate(r -> r.getLoggerName().equals(LocalRedisServer.class.getName()))
            .assertLogRecords(records -> assertThat(records)
                    .filteredOn(r -> r.getLevel().intValue() == Level.INFO.intValue())
                    .singleElement()
                    .satisfies(r -> assertThat(LogMessages.formatted(r))
                            .contains("Pacer Dev Services started redis-server 6.2.")
                            .contains("embedded in com.github.codemonstur:embedded-redis:1.4.3")
                            .contains("quarkus-pacer/redis/1.4.3/redis-server-")
                            .contains("for Redis client <default>: quarkus.redis.hosts is not set, "
                                    + "quarkus.pacer.devservices.redis-server=embedded")));

    @Inject
    PacerRedis redis;

    @Test
    void runsRedis62() {
        assertThat(RedisInfo.field(RedisInfo.info(redis, "server"), "redis_version")).startsWith("6.2.");
    }
}
