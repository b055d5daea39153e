package io.quarkiverse.pacer.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Neither hosts, nor a container runtime, nor a redis-server: the build fails saying what to install or configure.
 */
class PacerDevServicesMissingRedisServerTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.devservices.redis-server", "/nonexistent/redis-server")
            .assertException(t -> {
                Throwable root = t;
                while (root.getCause() != null && !(root instanceof IllegalStateException)) {
                    root = root.getCause();
                }
                assertThat(root).isInstanceOf(IllegalStateException.class);
                assertThat(root.getMessage())
                        .contains("Pacer needs a Redis server in dev and test mode")
                        .contains("quarkus.redis.hosts is not set")
                        .contains("'/nonexistent/redis-server' was not found")
                        .contains("install redis-server")
                        .contains("quarkus.pacer.devservices.redis-server");
            });

    @Test
    void buildFails() {
        // assertException above checks the failure
    }
}
