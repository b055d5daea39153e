package io.quarkiverse.pacer.deployment.devservices;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.devservices.common.RedisProcess;

/**
 * A local Redis Cluster of three masters, each with {@code quarkus.pacer.devservices.cluster-replicas} replicas (none
 * by default), on free loopback ports, for dev and test mode with {@code quarkus.pacer.devservices.topology=cluster}:
 * {@code redis-server --cluster-enabled yes} processes whose 16384 slots are split in three ranges, joined with
 * {@code CLUSTER MEET}, replicas attached with {@code CLUSTER REPLICATE}. Node ports stay below 55536 so their cluster
 * bus ports (port + 10000) are valid. {@code cluster-require-full-coverage no}: while a master is down, the other
 * masters keep serving their slots, which is the partial availability Redis Cluster is chosen for.
 */
public final class LocalRedisCluster extends LocalRedisSetup {

    private static final Logger LOG = Logger.getLogger(LocalRedisCluster.class);
    static final int MASTERS = 3;
    private static final int SLOTS = 16384;
    private static final long FORM_TIMEOUT_MILLIS = 30_000;

    private final Path executable;
    private final int replicasPerMaster;
    private final List<RedisProcess> nodes = new ArrayList<>();
    private Path workDir;

    public LocalRedisCluster(Path executable, int replicasPerMaster) {
        this.executable = executable;
        this.replicasPerMaster = replicasPerMaster;
    }

    @Override
    void startOnce() {
        workDir = workDirectory("pacer-redis-cluster-", "a local Redis Cluster");
        int total = MASTERS * (1 + replicasPerMaster);
        for (int port : RedisProcess.freeNodePorts(total)) {
            nodes.add(RedisProcess.startClusterNode(executable, workDir, port));
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
        for (int i = 1; i < total; i++) {
            nodes.get(0).command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(nodes.get(i).port()));
        }
        awaitFormed(false);
        for (int i = MASTERS; i < total; i++) {
            // a replica may only follow a master it knows: every node knows every other one once formed
            String masterId = nodes.get(i % MASTERS).command("CLUSTER", "MYID");
            nodes.get(i).command("CLUSTER", "REPLICATE", masterId);
        }
        awaitFormed(true);
        LOG.infof("Pacer Dev Services started a local Redis Cluster of %d masters and %d replicas (%s) on 127.0.0.1:%s",
                MASTERS, total - MASTERS, executable, getConnectionInfo());
    }

    /**
     * Every node reports {@code cluster_state:ok} and knows every other node; with {@code replicasSynced}, every
     * replica also has its master link up and every node sees it as a replica.
     */
    private void awaitFormed(boolean replicasSynced) {
        long deadline = System.currentTimeMillis() + FORM_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            boolean ok = true;
            for (RedisProcess node : nodes) {
                String info = node.command("CLUSTER", "INFO");
                ok &= info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + nodes.size());
                if (replicasSynced) {
                    ok &= countLinesWith(node.command("CLUSTER", "NODES"), "slave") == nodes.size() - MASTERS;
                }
            }
            for (int i = MASTERS; replicasSynced && i < nodes.size(); i++) {
                ok &= nodes.get(i).command("INFO", "replication").contains("master_link_status:up");
            }
            if (ok) {
                return;
            }
            RedisProcess.pause(50);
        }
        throw new IllegalStateException("The local Redis Cluster was not formed within " + FORM_TIMEOUT_MILLIS
                + " ms; see the logs under " + workDir);
    }

    private static int countLinesWith(String text, String word) {
        int count = 0;
        for (String line : text.split("\n")) {
            count += line.contains(word) ? 1 : 0;
        }
        return count;
    }

    /** {@code quarkus.redis.hosts}: every node, masters first, so the client finds the cluster from any of them. */
    public String hosts() {
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
