package io.quarkiverse.pacer.devservices.common;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One {@code redis-server} process (a server, a Cluster node, a replica or a sentinel) that Pacer's Dev Services
 * start, with a minimal RESP client to set up a local topology. Nothing is persisted; its working directory is
 * private.
 * <p>
 * JDK only: the deployment module's Dev Services use it at build time, and the tests and the benchmarks (which must not
 * have the deployment module on their classpath) start the same processes with it.
 */
public final class RedisProcess {

    private static final long STARTUP_TIMEOUT_MILLIS = 10_000;
    /** Cluster bus ports are the node port + 10000, so node ports stay below this. */
    private static final int HIGHEST_NODE_PORT = 55_535;
    private static final int LOWEST_NODE_PORT = 20_000;
    /**
     * A Cluster node: {@code cluster-require-full-coverage no}, so the other masters keep serving their slots while
     * one is down.
     */
    private static final List<String> CLUSTER_NODE_ARGUMENTS = List.of("--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000", "--cluster-require-full-coverage",
            "no");

    private final Path workDir;
    private final int port;
    private final Process process;

    private RedisProcess(Path workDir, int port, Process process) {
        this.workDir = workDir;
        this.port = port;
        this.process = process;
    }

    /**
     * Starts {@code executable} on {@code port} in a fresh directory under {@code parent} with the extra arguments
     * (or, for a sentinel, with the given configuration file contents) and waits until it answers {@code PING}. Tests
     * use it to restart a node they killed, on its port and in its directory.
     */
    public static RedisProcess start(Path executable, Path parent, int port, List<String> extraArguments,
            String sentinelConfig) {
        Path dir = parent.resolve(Integer.toString(port));
        Process process;
        try {
            Files.createDirectories(dir);
            List<String> command = new ArrayList<>();
            command.add(executable.toString());
            if (sentinelConfig != null) {
                Path file = dir.resolve("sentinel.conf");
                Files.writeString(file, sentinelConfig);
                command.add(file.toString());
                command.add("--sentinel");
            }
            command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--daemonize", "no",
                    "--dir", dir.toString(), "--logfile", dir.resolve("redis.log").toString()));
            if (sentinelConfig == null) {
                command.addAll(List.of("--save", "", "--appendonly", "no"));
            }
            command.addAll(extraArguments);
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("Pacer could not start " + executable + ": " + e.getMessage(), e);
        }
        RedisProcess started = new RedisProcess(dir, port, process);
        try {
            started.awaitPong();
        } catch (IllegalStateException e) {
            started.stop();
            throw e;
        }
        return started;
    }

    /**
     * Starts a Redis Cluster node on {@code port} in {@code parent}/{@code port}; on the port and directory of a node
     * that was killed, it rejoins its cluster with its {@code nodes.conf}.
     */
    public static RedisProcess startClusterNode(Path executable, Path parent, int port) {
        return start(executable, parent, port, CLUSTER_NODE_ARGUMENTS, null);
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    private void awaitPong() {
        long deadline = System.currentTimeMillis() + STARTUP_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with code " + process.exitValue()
                        + " while starting on port " + port + "; see " + workDir.resolve("redis.log"));
            }
            try {
                if ("PONG".equals(command("PING"))) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // not listening yet
            }
            pause(20);
        }
        throw new IllegalStateException("redis-server did not answer PING on port " + port + " within "
                + STARTUP_TIMEOUT_MILLIS + " ms; see " + workDir.resolve("redis.log"));
    }

    /** Sends one command and returns the reply as text (arrays as lines); a Redis error becomes an exception. */
    public String command(String... arguments) {
        return command(port, arguments);
    }

    /** Sends one command to the Redis on a loopback port (also for tests that reshard or fail over). */
    public static String command(int port, String... arguments) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            StringBuilder request = new StringBuilder("*").append(arguments.length).append("\r\n");
            for (String argument : arguments) {
                byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
                request.append('$').append(bytes.length).append("\r\n").append(argument).append("\r\n");
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            return read(new BufferedInputStream(socket.getInputStream()));
        } catch (IOException e) {
            throw new IllegalStateException("Redis on port " + port + " did not answer: " + e.getMessage(), e);
        }
    }

    private static String read(InputStream in) throws IOException {
        String line = line(in);
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '+':
            case ':':
                return rest;
            case '-':
                throw new IllegalStateException(rest);
            case '$': {
                int length = Integer.parseInt(rest);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length + 2);
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(rest);
                StringBuilder items = new StringBuilder();
                for (int i = 0; i < count; i++) {
                    if (i > 0) {
                        items.append('\n');
                    }
                    items.append(read(in));
                }
                return items.toString();
            }
            default:
                throw new IOException("Unexpected reply " + line);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("Connection closed");
            }
            if (previous == '\r' && b == '\n') {
                byte[] all = bytes.toByteArray();
                return new String(all, 0, all.length - 1, StandardCharsets.UTF_8);
            }
            bytes.write(b);
            previous = b;
        }
    }

    /** Asks the redis-server to exit, then kills it if it has not exited within 5 s. */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * {@code count} distinct free loopback ports in [20000, 55535] whose port + 10000 (the cluster bus) is free too.
     */
    public static List<Integer> freeNodePorts(int count) {
        List<Integer> ports = new ArrayList<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; ports.size() < count && attempt < 1_000; attempt++) {
            int candidate = random.nextInt(LOWEST_NODE_PORT, HIGHEST_NODE_PORT + 1);
            if (!ports.contains(candidate) && !ports.contains(candidate + 10_000) && !ports.contains(candidate - 10_000)
                    && isFree(candidate) && isFree(candidate + 10_000)) {
                ports.add(candidate);
            }
        }
        if (ports.size() < count) {
            throw new IllegalStateException("No " + count + " free loopback ports (with port + 10000 free) between "
                    + LOWEST_NODE_PORT + " and " + HIGHEST_NODE_PORT + " for a local Redis topology");
        }
        return ports;
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while setting up a local Redis topology", e);
        }
    }

    public static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // a temp directory left behind is harmless
        }
    }
}
