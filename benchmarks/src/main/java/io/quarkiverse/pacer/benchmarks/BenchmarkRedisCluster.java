package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The Redis Cluster of the cluster rows ({@code -Dbench.only=cluster}): three masters, no replicas, each a
 * {@link BenchmarkRedisServer} with {@code --cluster-enabled yes}, the 16384 slots split in three ranges and joined with
 * {@code CLUSTER MEET}; stopped when the harness exits.
 */
public final class BenchmarkRedisCluster implements AutoCloseable {

    static final int MASTERS = 3;
    private static final int SLOTS = 16384;
    private static final long FORM_TIMEOUT_MILLIS = 30_000;

    private final List<BenchmarkRedisServer> nodes = new ArrayList<>();

    public static BenchmarkRedisCluster start(String executable) {
        BenchmarkRedisCluster cluster = new BenchmarkRedisCluster();
        try {
            for (int i = 0; i < MASTERS; i++) {
                cluster.nodes.add(BenchmarkRedisServer.start(executable, List.of("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000")));
            }
            cluster.form();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void form() {
        for (int i = 0; i < MASTERS; i++) {
            List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = i * SLOTS / MASTERS; slot < (i + 1) * SLOTS / MASTERS; slot++) {
                command.add(Integer.toString(slot));
            }
            command(nodes.get(i).port(), command.toArray(new String[0]));
        }
        for (int i = 1; i < MASTERS; i++) {
            command(nodes.get(0).port(), "CLUSTER", "MEET", "127.0.0.1", Integer.toString(nodes.get(i).port()));
        }
        long deadline = System.currentTimeMillis() + FORM_TIMEOUT_MILLIS;
        while (!formed()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("The benchmark's Redis Cluster did not form within "
                        + FORM_TIMEOUT_MILLIS + " ms");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while forming the benchmark's Redis Cluster", e);
            }
        }
    }

    private boolean formed() {
        for (BenchmarkRedisServer node : nodes) {
            String info = String.valueOf(command(node.port(), "CLUSTER", "INFO"));
            if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + MASTERS)) {
                return false;
            }
        }
        return true;
    }

    /** One command on a fresh connection to the node on {@code port}. */
    public static Object command(int port, String... arguments) {
        try (RespConnection connection = RespConnection.open(port)) {
            return connection.command(arguments);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Integer> ports() {
        return nodes.stream().map(BenchmarkRedisServer::port).toList();
    }

    /** {@code quarkus.redis.hosts}: every master. */
    public String hosts() {
        StringJoiner hosts = new StringJoiner(",");
        nodes.forEach(node -> hosts.add(node.uri()));
        return hosts.toString();
    }

    @Override
    public void close() {
        nodes.forEach(BenchmarkRedisServer::close);
        nodes.clear();
    }
}
