package io.quarkiverse.pacer.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * No Redis configuration at all and no container runtime: Pacer starts a local redis-server and the client uses it.
 */
class PacerDevServicesStartsRedisTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RedisInfo.class));

    @Inject
    PacerRedis redis;

    @Test
    void clientTalksToTheStartedServer() {
        String hosts = ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class);
        assertThat(hosts).startsWith("redis://127.0.0.1:");
        int port = RedisInfo.portOf(hosts);
        assertThat(port).isNotEqualTo(6379);

        String pong = redis.send(Request.cmd(Command.PING)).await().atMost(Duration.ofSeconds(5)).toString();
        assertThat(pong).isEqualTo("PONG");
        assertThat(RedisInfo.tcpPort(redis)).isEqualTo(port);
        // Started by Pacer for this test only: nothing is persisted.
        assertThat(redis.send(Request.cmd(Command.CONFIG).arg("GET").arg("save")).await().atMost(Duration.ofSeconds(5))
                .get("save").toString()).isEmpty();
    }
}
