package io.quarkiverse.pacer.devservices.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * Checking a {@code redis-server} candidate: its {@code --version} output decides, and old versions are recognised.
 */
class RedisServerExecutableTest {

    @Test
    void comparesVersions() {
        assertThat(server("6.0.16").olderThan(6, 2)).isTrue();
        assertThat(server("5.0.14.1").olderThan(6, 2)).isTrue();
        assertThat(server("6.2.11").olderThan(6, 2)).isFalse();
        assertThat(server("7.0.15").olderThan(6, 2)).isFalse();
        assertThat(server("unknown").olderThan(6, 2)).isFalse();
    }

    @Test
    void rejectsAnExecutableThatIsNoRedisServer() throws Exception {
        // An executable that prints nothing and succeeds, whatever the PATH holds.
        Path notRedis = Files.createTempFile("not-redis", ".sh");
        Files.writeString(notRedis, "#!/bin/sh\nexit 0\n");
        notRedis.toFile().setExecutable(true);
        notRedis.toFile().deleteOnExit();
        assertThatThrownBy(() -> RedisServerExecutable.check(notRedis, "test"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(notRedis + " --version failed (exit code 0): ");
    }

    @Test
    void locatesOnlyExistingExecutables() {
        assertThat(RedisServerExecutable.locate("/nonexistent/redis-server")).isEmpty();
        assertThat(RedisServerExecutable.locate("no-such-redis-server-anywhere")).isEmpty();
    }

    private static RedisServerExecutable server(String version) {
        return new RedisServerExecutable(Path.of("/x/redis-server"), version, "test");
    }
}
