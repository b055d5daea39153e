package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
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
import io.quarkiverse.pacer.devservices.common.RedisProcess;
import io.quarkiverse.pacer.test.support.ClusterReshard;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code durability=replicas} on the local 3-master Redis Cluster, whose masters have no replica: {@code WAIT} goes to
 * the master that stored each message, right behind its script, and since no replica confirms, {@code schedule}
 * fails saying the message was stored but not confirmed; the message is delivered, as the failure says it may be.
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
    void waitFollowsTheScriptToItsMaster() {
        String hosts = ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class);
        ClusterReshard cluster = new ClusterReshard(hosts);
        List<Integer> masters = new ArrayList<>();
        for (String host : hosts.split(",")) {
            masters.add(RedisInfo.portOf(host.trim()));
        }
        Set<Integer> scriptLoaded = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            String id = "d-" + i;
            int owner = cluster.ownerOf(cluster.slotOf("{durable#" + Math.floorMod(id.hashCode(), SHARDS) + "}"));
            List<Long> waitsBefore = masters.stream().map(port -> waits(port)).toList();

            assertThatThrownBy(() -> queue.scheduleWithId("durable", id, id, Duration.ZERO))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("message " + id + " of queue durable stored by the primary but not confirmed"
                            + " by a replica within PT1S")
                    .hasMessageContaining("schedule it again with the same id");
            for (int m = 0; m < masters.size(); m++) {
                long waited = waits(masters.get(m)) - waitsBefore.get(m);
                if (masters.get(m) == owner) {
                    // Two on a master's first schedule: the script answered NOSCRIPT, and went again with EVAL.
                    assertThat(waited).as("WAIT calls on the owner " + owner).isEqualTo(scriptLoaded.add(owner) ? 2 : 1);
                } else {
                    assertThat(waited).as("WAIT calls on " + masters.get(m)).isZero();
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received.contains(id));
        }
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
