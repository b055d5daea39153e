package io.quarkiverse.pacer.deployment.devservices;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * A {@code redis-server} process on a free loopback port: Pacer's Dev Service when no container runtime is available.
 * <p>
 * Nothing is persisted (no RDB, no AOF) and the working directory is a fresh temporary directory, so every start is
 * a clean Redis that no other process uses.
 */
public final class LocalRedisServer extends LocalRedisSetup {

    private static final Logger LOG = Logger.getLogger(LocalRedisServer.class);
    private static final long STARTUP_TIMEOUT_MILLIS = 10_000;

    private final RedisServerExecutable server;
    private final String clientName;
    private final String reason;
    private Process process;
    private Path workDir;
    private int port;

    /**
     * @param server the executable to start
     * @param clientName the Redis client it serves, for the log
     * @param reason why Pacer runs it, for the log
     */
    public LocalRedisServer(RedisServerExecutable server, String clientName, String reason) {
        this.server = server;
        this.clientName = clientName;
        this.reason = reason;
    }

    @Override
    void startOnce() {
        int candidatePort = freePort();
        try {
            workDir = Files.createTempDirectory("pacer-redis-");
            List<String> command = new ArrayList<>(List.of(server.path().toString(),
                    "--port", Integer.toString(candidatePort),
                    "--bind", "127.0.0.1",
                    "--save", "",
                    "--appendonly", "no",
                    "--daemonize", "no",
                    "--dir", workDir.toString(),
                    "--logfile", workDir.resolve("redis.log").toString()));
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(workDir.resolve("stdout.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("Pacer could not start " + server.path() + ": " + e.getMessage(), e);
        }
        port = candidatePort;
        awaitPong();
        LOG.infof("Pacer Dev Services started %s on 127.0.0.1:%d (pid %d) for Redis client %s: %s", server.describe(),
                port, process.pid(), clientName, reason);
    }

    private void awaitPong() {
        long deadline = System.currentTimeMillis() + STARTUP_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with code " + process.exitValue()
                        + " while starting on port " + port + "; see " + workDir.resolve("redis.log"));
            }
            if (ping()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for redis-server", e);
            }
        }
        throw new IllegalStateException("redis-server did not answer PING on port " + port + " within "
                + STARTUP_TIMEOUT_MILLIS + " ms; see " + workDir.resolve("redis.log"));
    }

    private boolean ping() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            return "+PONG".equals(in.readLine());
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("No free port for redis-server", e);
        }
    }

    /** The executable this server runs. */
    public Path executable() {
        return server.path();
    }

    public int port() {
        return port;
    }

    @Override
    public String getConnectionInfo() {
        return "127.0.0.1:" + port;
    }

    @Override
    void stopAll() {
        Process p = process;
        if (p == null) {
            return;
        }
        process = null;
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
        LOG.debugf("Pacer Dev Services stopped redis-server on port %d", port);
        RedisProcess.deleteQuietly(workDir);
    }
}
