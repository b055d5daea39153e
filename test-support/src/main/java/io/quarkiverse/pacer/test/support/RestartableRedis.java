package io.quarkiverse.pacer.test.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.awaitility.Awaitility;

import io.quarkiverse.pacer.devservices.common.LocalRedisServerChoice;

/**
 * A {@code redis-server} of the test's own on a fixed free port, which the test stops and starts again (same port,
 * empty data) to play a Redis outage. Shared by JUnit's and Quarkus's copies of a test class through system
 * properties, which hold only strings (Narayana, for one, copies every system property as a string).
 */
public final class RestartableRedis {

    private final Path executable = LocalRedisServerChoice.choose(LocalRedisServerChoice.AUTO).path();
    private final int port;
    private final Path dir;
    /** The system property holding the running process's pid, shared with this class's copy in the other class loader. */
    private final String pidProperty;

    private RestartableRedis(int port, Path dir, String pidProperty) {
        this.port = port;
        this.dir = dir;
        this.pidProperty = pidProperty;
    }

    /** The server of this name, started on first use; JUnit's and Quarkus's copies of a test share it. */
    public static RestartableRedis shared(String name) {
        synchronized (System.getProperties()) {
            String holder = "pacer.test.restartable-redis." + name;
            String state = System.getProperty(holder);
            if (state != null) {
                String[] parts = state.split(",", 2);
                return new RestartableRedis(Integer.parseInt(parts[0]), Path.of(parts[1]), holder + ".pid");
            }
            try {
                RestartableRedis redis = new RestartableRedis(freePort(),
                        Files.createTempDirectory("pacer-restartable-redis"), holder + ".pid");
                redis.start();
                Runtime.getRuntime()
                        .addShutdownHook(new Thread(() -> redis.running().ifPresent(ProcessHandle::destroyForcibly)));
                System.setProperty(holder, redis.port + "," + redis.dir);
                return redis;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public void start() {
        synchronized (System.getProperties()) {
            try {
                Process process = new ProcessBuilder(List.of(executable.toString(), "--port", Integer.toString(port),
                        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()))
                        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
                System.setProperty(pidProperty, Long.toString(process.pid()));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(this::answers);
    }

    public void stop() throws InterruptedException {
        Optional<ProcessHandle> running;
        synchronized (System.getProperties()) {
            running = running();
            System.clearProperty(pidProperty);
        }
        if (running.isEmpty()) {
            return;
        }
        running.get().destroyForcibly();
        try {
            running.get().onExit().get(20, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("redis-server on port " + port + " did not stop", e);
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !answers());
    }

    private Optional<ProcessHandle> running() {
        String pid = System.getProperty(pidProperty);
        return pid == null ? Optional.empty() : ProcessHandle.of(Long.parseLong(pid));
    }

    /** Sends one inline command and returns the raw reply. */
    public String command(String inline) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write((inline + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[512];
            int read = in.read(buffer);
            return read <= 0 ? "" : new String(buffer, 0, read, StandardCharsets.UTF_8);
        }
    }

    private boolean answers() {
        try {
            return command("PING").startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
