package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.devservices.common.RedisProcess;
import io.quarkiverse.pacer.test.support.ClusterLoad;
import io.quarkiverse.pacer.test.support.LocalCluster;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code durability=replicas} on a 3-master Redis Cluster with one replica per master, with {@value #PRODUCERS}
 * concurrent producers: every {@code schedule} succeeds and its message is delivered, and the durable writes that
 * reach a master together share their {@code WAIT}s: the masters run fewer {@code WAIT}s than there were writes.
 */
class ClusterDurableGroupCommitTest extends ClusterFailureTestBase {

    private static final Logger LOG = Logger.getLogger(ClusterDurableGroupCommitTest.class);
    static final int PRODUCERS = 64;
    static final int PER_PRODUCER = 20;

    @RegisterExtension
    static final QuarkusUnitTest config = application(1, ClusterDurableGroupCommitTest.class)
            .overrideConfigKey("quarkus.pacer.delayed.durability", "replicas");

    @Test
    void concurrentDurableWritesShareTheirWaits() throws Exception {
        LocalCluster cluster = cluster();
        List<Integer> masters = cluster.masters();
        for (int master : masters) {
            assertThat(cluster.replicaOf(master)).as("replica of " + master).isPresent();
            cluster.awaitReplicated(master);
        }
        // The first schedule of each master loads the script (NOSCRIPT, then EVAL): done before counting.
        for (int shard = 0; shard < SHARDS; shard++) {
            queue.scheduleWithId(QUEUE, idOnShard("warm-", shard), "warm", Duration.ZERO);
        }
        long waitsBefore = masters.stream().mapToLong(ClusterDurableGroupCommitTest::waits).sum();
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<Throwable> failures = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < PER_PRODUCER; i++) {
                        String id = "g" + producer + "-" + i;
                        queue.scheduleWithId(QUEUE, id, id, Duration.ZERO);
                        acknowledged.add(id);
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            thread.start();
            producers.add(thread);
        }
        start.countDown();
        for (Thread thread : producers) {
            thread.join(120_000);
        }
        long waits = masters.stream().mapToLong(ClusterDurableGroupCommitTest::waits).sum() - waitsBefore;
        boolean delivered = ClusterLoad.eventually(() -> ClusterLoad.lost(consumer.receivedAt, acknowledged) == 0);
        LOG.infof("%d producers, %d durable schedules: %d acknowledged, %d failed; WAIT calls on the masters: %d (%.1f"
                + " writes per WAIT)", PRODUCERS, PRODUCERS * PER_PRODUCER, acknowledged.size(), failures.size(), waits,
                acknowledged.size() / (double) Math.max(1, waits));

        assertThat(failures).as("failed schedules").isEmpty();
        assertThat(acknowledged).hasSize(PRODUCERS * PER_PRODUCER);
        assertThat(waits).as("WAIT calls for " + acknowledged.size() + " durable writes").isPositive()
                .isLessThan(acknowledged.size());
        assertThat(delivered).as("every acknowledged message delivered").isTrue();
    }

    private static String idOnShard(String prefix, int shard) {
        for (int i = 0;; i++) {
            if (ClusterLoad.shardOf(prefix + i, SHARDS) == shard) {
                return prefix + i;
            }
        }
    }

    /** {@code WAIT} calls a node has run ({@code INFO commandstats}). */
    static long waits(int port) {
        String prefix = "cmdstat_wait:calls=";
        for (String line : RedisProcess.command(port, "INFO", "commandstats").split("\r?\n")) {
            if (line.startsWith(prefix)) {
                String rest = line.substring(prefix.length());
                return Long.parseLong(rest.substring(0, rest.indexOf(',')));
            }
        }
        return 0;
    }
}
