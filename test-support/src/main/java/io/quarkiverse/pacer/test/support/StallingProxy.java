package io.quarkiverse.pacer.test.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of a Redis server that can stall like a half-dead network path: while the stall switch is on,
 * every connection that carries a byte in either direction turns silent for good (its bytes are dropped, it is never
 * closed), as a connection behind a lost NAT entry does. Connections idle during the stall, and new ones, work.
 */
public final class StallingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final AtomicBoolean stalled;
    private final AtomicInteger lostRequests;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /**
     * @param stalled the stall switch: a JDK type, so a test class loaded by both JUnit and Quarkus can share it
     * @param lostRequests counts the connections that turned silent while sending to Redis (a request was lost)
     */
    public StallingProxy(int targetPort, AtomicBoolean stalled, AtomicInteger lostRequests) {
        this.target = targetPort;
        this.stalled = stalled;
        this.lostRequests = lostRequests;
        try {
            this.server = new ServerSocket(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "stalling-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket redis = new Socket("localhost", target);
                sockets.add(client);
                sockets.add(redis);
                AtomicBoolean dead = new AtomicBoolean();
                pump(client, redis, dead, true);
                pump(redis, client, dead, false);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicBoolean dead, boolean toRedis) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream()) {
                OutputStream out = to.getOutputStream();
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (stalled.get() && dead.compareAndSet(false, true) && toRedis) {
                        lostRequests.incrementAndGet();
                    }
                    if (!dead.get()) {
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // closed
            }
        }, "stalling-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // ignore
        }
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // ignore
            }
        }
    }
}
