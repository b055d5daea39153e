package io.quarkiverse.pacer.deployment.devservices;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import org.jboss.logging.Logger;

/**
 * A local Redis Cluster of three masters (no replicas) on free loopback ports, for dev and test mode with
 * {@code quarkus.pacer.devservices.topology=cluster}: three {@code redis-server --cluster-enabled yes} processes whose
 * 16384 slots are split in three ranges, joined with {@code CLUSTER MEET}. Node ports stay below 55536 so their cluster
 * bus ports (port + 10000) are valid.
 */
public final class LocalRedisCluster extends LocalRedisSetup {

    private static final Logger LOG = Logger.getLogger(LocalRedisCluster.class);
    static final int MASTERS = 3;
    private static final int SLOTS = 16384;
    private static final long FORM_TIMEOUT_MILLIS = 20_000;

    private final Path executable;
    private final List<RedisProcess> nodes = new ArrayList<>();
    private Path workDir;

    public LocalRedisCluster(Path executable) {
        this.executable = executable;
    }

    @Override
    void startOnce() {
        workDir = workDirectory("pacer-redis-cluster-", "a local Redis Cluster");
        for (int port : RedisProcess.freeNodePorts(MASTERS)) {
            nodes.add(RedisProcess.start(executable, workDir, port, List.of("--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000"), null));
        }
        for (int i = 0; i < MASTERS; i++) {
            int first = i * SLOTS / MASTERS;
            int last = (i + 1) * SLOTS / MASTERS - 1;
            List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = first; slot <= last; slot++) {
                command.add(Integer.toString(slot));
            }
            nodes.get(i).command(command.toArray(new String[0]));
        }
        for (int i = 1; i < MASTERS; i++) {
            nodes.get(0).command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(nodes.get(i).port()));
        }
        awaitClusterOk();
        LOG.infof("Pacer Dev Services started a local Redis Cluster of %d masters (%s) on 127.0.0.1:%s", MASTERS,
                executable, getConnectionInfo());
    }

    /** Every node reports {@code cluster_state:ok} and knows every other node. */
    private void awaitClusterOk() {
        long deadline = System.currentTimeMillis() + FORM_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            boolean ok = true;
            for (RedisProcess node : nodes) {
                String info = node.command("CLUSTER", "INFO");
                ok &= info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + MASTERS);
            }
            if (ok) {
                return;
            }
            RedisProcess.pause(50);
        }
        throw new IllegalStateException("The local Redis Cluster did not reach cluster_state:ok within "
                + FORM_TIMEOUT_MILLIS + " ms; see the logs under " + workDir);
    }

    /** {@code quarkus.redis.hosts}: every master, so the client finds the cluster from any of them. */
    String hosts() {
        StringJoiner hosts = new StringJoiner(",");
        for (RedisProcess node : nodes) {
            hosts.add("redis://127.0.0.1:" + node.port());
        }
        return hosts.toString();
    }

    @Override
    public String getConnectionInfo() {
        StringJoiner ports = new StringJoiner(",");
        for (RedisProcess node : nodes) {
            ports.add(Integer.toString(node.port()));
        }
        return ports.toString();
    }

    @Override
    void stopAll() {
        for (RedisProcess node : nodes) {
            node.stop();
        }
        nodes.clear();
        RedisProcess.deleteQuietly(workDir);
        workDir = null;
    }
}
