package io.quarkiverse.pacer.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.LogMessages;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Nothing configured on a machine without a container runtime: Pacer logs no ERROR and no WARN, only its INFO line
 * naming the server it runs and why, and the Redis client's Dev Services do not warn that the client has no hosts
 * (Pacer's Dev Services give it one).
 */
class PacerDevServicesCleanStartTest {

    static final String REDIS_DEV_SERVICES = "io.quarkus.redis.deployment.client.DevServicesRedisProcessor";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RedisInfo.class))
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("io.quarkiverse.pacer")
                    || r.getLoggerName().equals(REDIS_DEV_SERVICES))
            .assertLogRecords(records -> {
                assertThat(records).as("Pacer's and the Redis client's Dev Services' ERROR and WARN records")
                        .filteredOn(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                        .extracting(PacerDevServicesCleanStartTest::describe)
                        .isEmpty();
                assertThat(records).filteredOn(r -> r.getLoggerName().equals(LocalRedisServer.class.getName()))
                        .singleElement()
                        .satisfies(
                                r -> assertThat(LogMessages.formatted(r)).startsWith("Pacer Dev Services started redis-server ")
                                        .contains("for Redis client <default>: quarkus.redis.hosts is not set, "
                                                + "no container runtime (Docker, Podman) was found"));
            });

    @Inject
    PacerRedis redis;

    @BeforeAll
    static void onlyWithoutContainerRuntime() {
        assumeFalse(ContainerRuntimeTraces.found(), "a container runtime may run the Redis client's Dev Services");
    }

    @Test
    void startsCleanly() {
        assertThat(RedisInfo.info(redis, "server")).contains("redis_version:");
    }

    private static String describe(LogRecord r) {
        return r.getLevel() + " " + r.getLoggerName() + ": " + LogMessages.formatted(r);
    }
}
