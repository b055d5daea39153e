package io.quarkiverse.pacer.deployment.support;

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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;

import io.quarkiverse.pacer.deployment.devservices.LocalRedisServerChoice;

/**
 * A {@code redis-server} of the test's own on a fixed free port, which the test stops and starts again (same port,
 * empty data) to play a Redis outage. Shared by JUnit's and Quarkus's copies of a test class through a system property.
 */
public final class RestartableRedis {

    private final Path executable = LocalRedisServerChoice.choose(LocalRedisServerChoice.AUTO).path();
    private final int port;
    private final Path dir;
    /** The running process, shared with this class's copy in the other class loader (JDK types only). */
    private final AtomicReference<Process> process;

    private RestartableRedis(int port, Path dir, AtomicReference<Process> process) {
        this.port = port;
        this.dir = dir;
        this.process = process;
    }

    /** The server of this name, started on first use; JUnit's and Quarkus's copies of a test share it. */
    @SuppressWarnings("unchecked")
    public static RestartableRedis shared(String name) {
        synchronized (System.getProperties()) {
            String holder = "pacer.test.restartable-redis." + name;
            Object[] state = (Object[]) System.getProperties().get(holder);
            if (state != null) {
                return new RestartableRedis((Integer) state[0], (Path) state[1], (AtomicReference<Process>) state[2]);
            }
            try {
                RestartableRedis redis = new RestartableRedis(freePort(),
                        Files.createTempDirectory("pacer-restartable-redis"), new AtomicReference<>());
                redis.start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    Process running = redis.process.get();
                    if (running != null) {
                        running.destroyForcibly();
                    }
                }));
                System.getProperties().put(holder, new Object[] { redis.port, redis.dir, redis.process });
                return redis;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public synchronized void start() {
        try {
            process.set(new ProcessBuilder(List.of(executable.toString(), "--port", Integer.toString(port), "--bind",
                    "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(this::answers);
    }

    public synchronized void stop() throws InterruptedException {
        Process running = process.getAndSet(null);
        if (running == null) {
            return;
        }
        running.destroyForcibly();
        running.waitFor(20, TimeUnit.SECONDS);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !answers());
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
