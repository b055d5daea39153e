package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code redis-server} every scenario runs against: a fresh process on a free loopback port (never 6379), no
 * persistence, started before Quarkus and stopped when the harness exits.
 */
public final class BenchmarkRedisServer implements AutoCloseable {

    private static final long STARTUP_TIMEOUT_MILLIS = 10_000;

    private final Process process;
    private final Path workDir;
    private final int port;

    private BenchmarkRedisServer(Process process, Path workDir, int port) {
        this.process = process;
        this.workDir = workDir;
        this.port = port;
    }

    public static BenchmarkRedisServer start(String executable) {
        return start(executable, List.of());
    }

    /** Starts one server with extra arguments (e.g. a Redis Cluster node's); node ports stay below 55536. */
    public static BenchmarkRedisServer start(String executable, List<String> extraArguments) {
        IllegalStateException last = null;
        // A probed free port can be taken before redis-server binds it: retry on another one.
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = freePort(extraArguments.isEmpty() ? 65_535 : 55_535);
            Path workDir = null;
            try {
                workDir = Files.createTempDirectory("pacer-bench-redis-");
                List<String> command = new ArrayList<>(List.of(executable,
                        "--port", Integer.toString(port),
                        "--bind", "127.0.0.1",
                        "--save", "",
                        "--appendonly", "no",
                        "--daemonize", "no",
                        "--dir", workDir.toString(),
                        "--logfile", workDir.resolve("redis.log").toString()));
                command.addAll(extraArguments);
                Process process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(workDir.resolve("stdout.log").toFile())
                        .start();
                BenchmarkRedisServer server = new BenchmarkRedisServer(process, workDir, port);
                server.awaitReady();
                server.prioritize();
                return server;
            } catch (IOException e) {
                throw new IllegalStateException("Cannot start " + executable + " (install redis-server): "
                        + e.getMessage(), e);
            } catch (IllegalStateException e) {
                last = e;
            }
        }
        throw last;
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

    private void awaitReady() {
        long deadline = System.currentTimeMillis() + STARTUP_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with code " + process.exitValue()
                        + " on port " + port + "; see " + workDir.resolve("redis.log"));
            }
            try (RespConnection connection = RespConnection.open(port)) {
                if ("PONG".equals(connection.command("PING"))) {
                    return;
                }
            } catch (IOException | RuntimeException notYet) {
                // still starting
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while starting redis-server", e);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("redis-server did not answer PING on port " + port);
    }

    /** A free loopback port up to {@code highest} (a cluster node's bus port, port + 10000, must stay valid). */
    private static int freePort(int highest) {
        for (int i = 0; i < 100; i++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (port != 6379 && port <= highest) {
                    return port;
                }
            } catch (IOException e) {
                throw new IllegalStateException("No free loopback port for redis-server", e);
            }
        }
        throw new IllegalStateException("No free loopback port for redis-server");
    }

    public int port() {
        return port;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try (var files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // a temp directory left behind is harmless
        }
    }
}
