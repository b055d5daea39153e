package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkiverse.pacer.devservices.common.RedisProcess;
import io.quarkiverse.pacer.test.support.ClusterReshard;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code durability=replicas} on the local 3-master Redis Cluster, whose masters have no replica: {@code schedule}
 * fails at once with {@link DurabilityUnavailableException}, naming the shard and its master, before its script runs:
 * nothing is stored, no {@code WAIT} is sent, and nothing is delivered.
 */
class ClusterDurableScheduleTest {

    static final int SHARDS = 3;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, ClusterReshard.class, RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
            .overrideConfigKey("quarkus.pacer.delayed.shards", Integer.toString(SHARDS))
            .overrideConfigKey("quarkus.pacer.delayed.durability", "replicas");

    @Singleton
    static class Consumer {
        final Set<String> received = ConcurrentHashMap.newKeySet();

        @Delayed("durable")
        void on(String id) {
            received.add(id);
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Test
    void scheduleIsRefusedAtOnceAndNothingIsStored() {
        String hosts = ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class);
        ClusterReshard cluster = new ClusterReshard(hosts);
        List<Integer> masters = new ArrayList<>();
        for (String host : hosts.split(",")) {
            masters.add(RedisInfo.portOf(host.trim()));
        }
        List<Long> waitsBefore = masters.stream().map(port -> waits(port)).toList();
        for (int i = 0; i < 6; i++) {
            String id = "d-" + i;
            int shard = Math.floorMod(id.hashCode(), SHARDS);
            int owner = cluster.ownerOf(cluster.slotOf("{durable#" + shard + "}"));

            assertThatThrownBy(() -> queue.scheduleWithId("durable", id, id, Duration.ZERO))
                    .isInstanceOfSatisfying(DurabilityUnavailableException.class, refused -> {
                        assertThat(refused.queue()).isEqualTo("durable");
                        assertThat(refused.shard()).isEqualTo(shard);
                        assertThat(refused.node()).isEqualTo("127.0.0.1:" + owner);
                    })
                    .hasMessage("quarkus.pacer.delayed.durability=replicas: message " + id + " of queue durable was"
                            + " not stored: shard " + shard + " of the queue lives on Redis master 127.0.0.1:" + owner
                            + ", which has no connected replica, so no replica could confirm the write (on Redis"
                            + " Cluster, a replica promoted after its master failed has none until a node replicates"
                            + " it). Add a replica to that master, or set quarkus.pacer.delayed.durability=primary;"
                            + " other shards are not affected, and the message can be scheduled again");
        }
        for (int m = 0; m < masters.size(); m++) {
            assertThat(waits(masters.get(m)) - waitsBefore.get(m)).as("WAIT calls on " + masters.get(m)).isZero();
        }
        assertThat(queue.size("durable")).as("messages stored").isZero();
        assertThat(consumer.received).as("messages delivered").isEmpty();
    }

    /** {@code WAIT} calls a master has run ({@code INFO commandstats}). */
    private static long waits(int port) {
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
