package io.quarkiverse.pacer.it.instances;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

/**
 * A {@code redis-server} the test starts itself on a free loopback port (never a shared one), without persistence, and
 * can stop and start again on the same port.
 */
final class RedisServerProcess implements AutoCloseable {

    private final int port = freePort();
    private final Path dir;
    private Process process;

    RedisServerProcess() throws IOException {
        dir = Files.createTempDirectory("pacer-it-redis");
    }

    RedisServerProcess start() throws IOException {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/nice"))) {
            // Redis runs on a machine of its own in production; here it shares 2 cores with two application JVMs
            // and hundreds of caller threads, so it gets a higher CPU priority, as the benchmark harness gives it.
            command.addAll(List.of("/usr/bin/nice", "-n", "-10"));
        }
        command.addAll(List.of(executable(),
                "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", dir.toString(), "--logfile", dir.resolve("redis.log").toString()));
        process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(this::answers);
        return this;
    }

    /**
     * {@code -Dpacer.it.redis-server}, else {@code redis-server} on the {@code PATH}, else the embedded Redis 6.2 that
     * Pacer's Dev Services extracted for this module's {@code @QuarkusTest} run (a machine with only a JDK).
     */
    static String executable() {
        String configured = System.getProperty("pacer.it.redis-server");
        if (configured != null) {
            return configured;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isBlank() && Files.isExecutable(Path.of(dir, "redis-server"))) {
                    // absolute: a killed Cluster node is restarted by the path its INFO reports
                    return Path.of(dir, "redis-server").toAbsolutePath().toString();
                }
            }
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache"))
                .resolve("quarkus-pacer").resolve("redis");
        try (var files = Files.walk(cache, 2)) {
            return files.filter(f -> f.getFileName().toString().startsWith("redis-server-")
                    && !f.getFileName().toString().endsWith(".part") && Files.isExecutable(f))
                    .map(Path::toString).sorted().findFirst()
                    .orElseThrow(() -> new IllegalStateException("no redis-server on the PATH and none in " + cache));
        } catch (IOException e) {
            throw new IllegalStateException("no redis-server on the PATH and none in " + cache, e);
        }
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    private boolean answers() {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("PING\r\n".getBytes());
            byte[] buffer = new byte[7];
            return socket.getInputStream().read(buffer) > 0 && new String(buffer).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    void stop() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
