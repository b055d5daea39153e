package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.producer.UnconsumedQueues;
import io.quarkiverse.pacer.test.support.ClusterReshard;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * On the local 3-master Redis Cluster, the scan for queues no {@code @Delayed} method consumes visits every master (a
 * {@code SCAN} cursor belongs to one node): unconsumed queues stored on each of the three masters are all found.
 */
class ClusterUnconsumedQueuesTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, ClusterReshard.class, RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster");

    @Singleton
    static class Consumer {
        @Delayed("consumed")
        void on(String id) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    UnconsumedQueues unconsumed;

    @Test
    void findsUnconsumedQueuesOnEveryMaster() {
        ClusterReshard cluster = new ClusterReshard(
                ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class));
        Set<Integer> masters = new HashSet<>();
        List<String> queues = new ArrayList<>();
        for (int i = 0; masters.size() < 3; i++) {
            String name = "orphan-" + i;
            if (masters.add(cluster.ownerOf(cluster.slotOf("{" + name + "}")))) {
                queues.add(name);
            }
        }
        for (String name : queues) {
            queue.scheduleWithId(name, "m", "payload", Duration.ofHours(1));
        }
        queue.scheduleWithId("consumed", "m", "payload", Duration.ofHours(1));

        // Three masters with almost no keys: one SCAN call per master completes a pass.
        assertThat(unconsumed.advance(10).await().atMost(Duration.ofSeconds(30))).containsExactlyInAnyOrderElementsOf(
                queues);
    }
}
