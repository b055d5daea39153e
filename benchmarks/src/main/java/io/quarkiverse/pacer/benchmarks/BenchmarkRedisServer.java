package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.pacer.devservices.common.RedisProcess;

/**
 * The {@code redis-server} every scenario runs against: a fresh process on a free loopback port (never 6379), no
 * persistence, started before Quarkus and stopped when the harness exits. It is the {@link RedisProcess} Dev Services
 * run, in a temporary directory, at a higher CPU priority.
 */
public final class BenchmarkRedisServer implements AutoCloseable {

    private final RedisProcess process;
    private final Path workDir;

    private BenchmarkRedisServer(RedisProcess process, Path workDir) {
        this.process = process;
        this.workDir = workDir;
    }

    public static BenchmarkRedisServer start(String executable) {
        return start(executable, List.of());
    }

    /** Starts one server with extra arguments (e.g. a Redis Cluster node's); ports leave room for the cluster bus. */
    public static BenchmarkRedisServer start(String executable, List<String> extraArguments) {
        IllegalStateException last = null;
        // A probed free port can be taken before redis-server binds it: retry on another one.
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = RedisProcess.freeNodePorts(1).get(0);
            Path workDir;
            try {
                workDir = Files.createTempDirectory("pacer-bench-redis-");
            } catch (IOException e) {
                throw new IllegalStateException("No temporary directory for redis-server: " + e.getMessage(), e);
            }
            try {
                BenchmarkRedisServer server = new BenchmarkRedisServer(
                        RedisProcess.start(Path.of(executable), workDir, port, extraArguments, null), workDir);
                server.prioritize();
                return server;
            } catch (IllegalStateException e) {
                RedisProcess.deleteQuietly(workDir);
                last = e;
            }
        }
        throw new IllegalStateException("Cannot start " + executable + " (install redis-server): " + last.getMessage(),
                last);
    }

    /**
     * In production Redis has its own cores; here it shares two with a JVM running dozens of threads. A higher CPU
     * priority ({@code bench.redis.nice}, default -10; best effort, needs root) keeps the scheduler from pausing Redis
     * in the middle of a command, so slow-log durations measure Redis's work. It applies to every implementation alike.
     */
    private void prioritize() {
        String nice = System.getProperty("bench.redis.nice", "-10");
        if (nice.isBlank() || "0".equals(nice)) {
            return;
        }
        try {
            Process renice = new ProcessBuilder("renice", "-n", nice, "-p", Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            renice.getInputStream().readAllBytes();
            renice.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            // renice missing: run at normal priority
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public int port() {
        return process.port();
    }

    public String uri() {
        return "redis://127.0.0.1:" + port();
    }

    @Override
    public void close() {
        process.stop();
        RedisProcess.deleteQuietly(workDir);
    }
}
