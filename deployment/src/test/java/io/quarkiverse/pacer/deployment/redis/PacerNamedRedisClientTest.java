package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.pacer.redis-client-name} selects a named Redis client; Dev Services configure that client.
 */
class PacerNamedRedisClientTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.redis-client-name", "pacer");

    @Inject
    PacerRedis redis;

    @Test
    void usesTheNamedClient() {
        String hosts = ConfigProvider.getConfig().getValue("quarkus.redis.pacer.hosts", String.class);
        assertThat(redis.clientDisplayName()).isEqualTo("pacer");
        assertThat(RedisInfo.tcpPort(redis)).isEqualTo(RedisInfo.portOf(hosts));
        assertThat(ConfigProvider.getConfig().getOptionalValue("quarkus.redis.hosts", String.class)).isEmpty();
    }
}
