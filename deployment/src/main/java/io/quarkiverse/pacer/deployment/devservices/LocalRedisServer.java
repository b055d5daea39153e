package io.quarkiverse.pacer.deployment.devservices;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.devservices.common.RedisProcess;
import io.quarkiverse.pacer.devservices.common.RedisServerExecutable;

/**
 * A {@code redis-server} process on a free loopback port: Pacer's Dev Service when no container runtime is available.
 * <p>
 * Nothing is persisted (no RDB, no AOF) and the working directory is a fresh temporary directory, so every start is
 * a clean Redis that no other process uses.
 */
public final class LocalRedisServer extends LocalRedisSetup {

    private static final Logger LOG = Logger.getLogger(LocalRedisServer.class);

    private final RedisServerExecutable server;
    private final String clientName;
    private final String reason;
    private RedisProcess process;
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
        workDir = workDirectory("pacer-redis-", "redis-server");
        process = RedisProcess.start(server.path(), workDir, freePort(), List.of(), null);
        port = process.port();
        LOG.infof("Pacer Dev Services started %s on 127.0.0.1:%d (pid %d) for Redis client %s: %s", server.describe(),
                port, process.pid(), clientName, reason);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
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
        RedisProcess p = process;
        if (p == null) {
            RedisProcess.deleteQuietly(workDir);
            return;
        }
        process = null;
        p.stop();
        LOG.debugf("Pacer Dev Services stopped redis-server on port %d", port);
        RedisProcess.deleteQuietly(workDir);
    }
}
