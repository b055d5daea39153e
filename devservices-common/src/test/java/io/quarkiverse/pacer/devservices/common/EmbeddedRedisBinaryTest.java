package io.quarkiverse.pacer.devservices.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded {@code redis-server}: one binary per supported OS and CPU, extracted once, safely under parallel builds.
 */
class EmbeddedRedisBinaryTest {

    @Test
    void picksTheBinaryForEachSupportedPlatform() {
        assertThat(EmbeddedRedisBinary.resourceName("Linux", "amd64")).hasValue("redis-server-6.2.6-v5-linux-amd64");
        assertThat(EmbeddedRedisBinary.resourceName("Linux", "aarch64")).hasValue("redis-server-6.2.7-linux-arm64");
        assertThat(EmbeddedRedisBinary.resourceName("Linux", "i386")).hasValue("redis-server-6.2.7-linux-386");
        assertThat(EmbeddedRedisBinary.resourceName("Mac OS X", "x86_64")).hasValue("redis-server-6.2.6-v5-darwin-amd64");
        assertThat(EmbeddedRedisBinary.resourceName("Mac OS X", "aarch64")).hasValue("redis-server-6.2.6-v5-darwin-arm64");
        // The artifact's Windows binary is a Redis 5.0 port, below the supported range.
        assertThat(EmbeddedRedisBinary.resourceName("Windows 11", "amd64")).isEmpty();
        assertThat(EmbeddedRedisBinary.resourceName("Linux", "ppc64le")).isEmpty();
    }

    @Test
    void everyBinaryNamedIsInTheArtifact() {
        for (String os : List.of("Linux", "Mac OS X")) {
            for (String arch : List.of("amd64", "aarch64", "i386")) {
                EmbeddedRedisBinary.resourceName(os, arch).ifPresent(resource -> assertThat(
                        EmbeddedRedisBinary.class.getClassLoader().getResource(resource)).as(resource).isNotNull());
            }
        }
        assertThat(EmbeddedRedisBinary.artifactVersion()).hasValue("1.4.3");
    }

    @Test
    void parallelExtractionsYieldOneWorkingBinary(@TempDir Path cache) throws Exception {
        assumeTrue(EmbeddedRedisBinary.resourceName(System.getProperty("os.name"), System.getProperty("os.arch"))
                .isPresent(), "no embedded redis-server for this platform");
        int builds = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(builds);
        try {
            List<Future<Path>> extracted = new ArrayList<>();
            for (int i = 0; i < builds; i++) {
                extracted.add(pool.submit(() -> {
                    start.await();
                    return EmbeddedRedisBinary.extractInto(cache);
                }));
            }
            start.countDown();
            Path binary = extracted.get(0).get(30, TimeUnit.SECONDS);
            for (Future<Path> other : extracted) {
                assertThat(other.get(30, TimeUnit.SECONDS)).isEqualTo(binary);
            }
            try (var files = Files.list(cache)) {
                assertThat(files).as("no partial copies left behind").containsExactly(binary);
            }
            RedisServerExecutable server = RedisServerExecutable.check(binary, "embedded");
            assertThat(server.version()).startsWith("6.2.");
        } finally {
            pool.shutdownNow();
        }
    }
}
