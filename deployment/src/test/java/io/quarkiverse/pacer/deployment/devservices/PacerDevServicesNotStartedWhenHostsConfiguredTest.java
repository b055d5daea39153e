package io.quarkiverse.pacer.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.devservices.common.LocalRedisServerChoice;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.redis.hosts} is configured: Pacer starts nothing and the client uses the configured server.
 */
class PacerDevServicesNotStartedWhenHostsConfiguredTest {

    // The test's own Redis, started before the application so its address can be configured.
    static final LocalRedisServer OWN_SERVER = startOwnServer();

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RedisInfo.class))
            .overrideConfigKey("quarkus.redis.hosts", "redis://" + OWN_SERVER.getConnectionInfo());

    @Inject
    PacerRedis redis;

    private static final String HOLDER = "pacer.test.own-redis-server";

    /**
     * JUnit and Quarkus each load this class, so the static initializer runs twice; the server is kept in a system
     * property (LocalRedisServer has one class loader) so both copies share one process.
     */
    static LocalRedisServer startOwnServer() {
        Object existing = System.getProperties().get(HOLDER);
        if (existing instanceof LocalRedisServer server) {
            return server;
        }
        LocalRedisServer server = new LocalRedisServer(LocalRedisServerChoice.choose(LocalRedisServerChoice.AUTO), "test",
                "started by the test");
        server.start();
        System.getProperties().put(HOLDER, server);
        return server;
    }

    @AfterAll
    static void stopOwnServer() {
        System.getProperties().remove(HOLDER);
        OWN_SERVER.close();
    }

    @Test
    void usesConfiguredServerAndStartsNoOther() throws Exception {
        assertThat(RedisInfo.tcpPort(redis)).isEqualTo(OWN_SERVER.port());
        // Debian links redis-server to redis-check-rdb, and redis rewrites its command line: compare real paths.
        Path redisServer = OWN_SERVER.executable().toRealPath();
        long redisServers = ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> Path.of(c).equals(redisServer)).orElse(false))
                .count();
        assertThat(redisServers).as("redis-server processes started by this JVM").isEqualTo(1);
    }
}
