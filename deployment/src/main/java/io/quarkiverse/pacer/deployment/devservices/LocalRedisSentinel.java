package io.quarkiverse.pacer.deployment.devservices;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.devservices.common.RedisProcess;

/**
 * A local Sentinel setup for dev and test mode with {@code quarkus.pacer.devservices.topology=sentinel}: a primary,
 * two replicas and three sentinels (quorum 2) monitoring the primary as {@value #MASTER_NAME}, all
 * {@code redis-server} processes on free loopback ports. A primary that stops answering for a second is failed over
 * to a replica, and the other replica then follows the new primary, so writes still have a replica to reach.
 */
public final class LocalRedisSentinel extends LocalRedisSetup {

    private static final Logger LOG = Logger.getLogger(LocalRedisSentinel.class);
    static final String MASTER_NAME = "pacer";
    static final int REPLICAS = 2;
    static final int SENTINELS = 3;
    private static final long FORM_TIMEOUT_MILLIS = 20_000;

    private final Path executable;
    private final List<RedisProcess> processes = new ArrayList<>();
    private final List<RedisProcess> sentinels = new ArrayList<>();
    private Path workDir;

    public LocalRedisSentinel(Path executable) {
        this.executable = executable;
    }

    @Override
    void startOnce() {
        workDir = workDirectory("pacer-redis-sentinel-", "a local Redis Sentinel setup");
        List<Integer> ports = RedisProcess.freeNodePorts(1 + REPLICAS + SENTINELS);
        int primaryPort = ports.get(0);
        processes.add(RedisProcess.start(executable, workDir, primaryPort, List.of(), null));
        List<RedisProcess> replicas = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            RedisProcess replica = RedisProcess.start(executable, workDir, ports.get(1 + i),
                    List.of("--replicaof", "127.0.0.1", Integer.toString(primaryPort)), null);
            processes.add(replica);
            replicas.add(replica);
        }
        String config = "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + primaryPort + " 2\n"
                + "sentinel down-after-milliseconds " + MASTER_NAME + " 1000\n"
                + "sentinel failover-timeout " + MASTER_NAME + " 5000\n"
                + "sentinel parallel-syncs " + MASTER_NAME + " 1\n";
        for (int i = 0; i < SENTINELS; i++) {
            RedisProcess sentinel = RedisProcess.start(executable, workDir, ports.get(1 + REPLICAS + i), List.of(),
                    config);
            processes.add(sentinel);
            sentinels.add(sentinel);
        }
        awaitReady(replicas);
        LOG.infof("Pacer Dev Services started a local Redis primary (127.0.0.1:%d) with %d replicas and %d sentinels"
                + " (%s) monitoring it as %s", primaryPort, REPLICAS, SENTINELS, hosts(), MASTER_NAME);
    }

    /** The replicas are in sync and every sentinel knows them and the other sentinels. */
    private void awaitReady(List<RedisProcess> replicas) {
        long deadline = System.currentTimeMillis() + FORM_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            boolean ready = true;
            for (RedisProcess replica : replicas) {
                ready &= replica.command("INFO", "replication").contains("master_link_status:up");
            }
            for (RedisProcess sentinel : sentinels) {
                String state = sentinel.command("SENTINEL", "MASTER", MASTER_NAME);
                ready &= state.contains("num-slaves\n" + REPLICAS)
                        && state.contains("num-other-sentinels\n" + (SENTINELS - 1));
            }
            if (ready) {
                return;
            }
            RedisProcess.pause(50);
        }
        throw new IllegalStateException("The local Redis Sentinel setup was not ready within " + FORM_TIMEOUT_MILLIS
                + " ms; see the logs under " + workDir);
    }

    /** {@code quarkus.redis.hosts}: the sentinels. */
    String hosts() {
        StringJoiner hosts = new StringJoiner(",");
        for (RedisProcess sentinel : sentinels) {
            hosts.add("redis://127.0.0.1:" + sentinel.port());
        }
        return hosts.toString();
    }

    @Override
    public String getConnectionInfo() {
        return hosts();
    }

    @Override
    void stopAll() {
        for (RedisProcess process : processes) {
            process.stop();
        }
        processes.clear();
        sentinels.clear();
        RedisProcess.deleteQuietly(workDir);
        workDir = null;
    }
}
