package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.DurabilityUnavailableException;
import io.quarkiverse.pacer.delay.PacerRedisException;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * With {@code durability=replicas} and a Redis without replicas, {@code schedule} fails at once with
 * {@link DurabilityUnavailableException}, before its script runs: the message is not stored, and no {@code WAIT} is
 * sent (so the call never waits for {@code durability-timeout}).
 */
class DelayedDurabilityWithoutReplicaTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.durability", "replicas")
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class));

    @Singleton
    static class Consumer {
        @Delayed("durable")
        void on(String payload) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    PacerRedis redis;

    @Test
    void scheduleIsRefusedAtOnceWhenNoReplicaIsConnected() {
        long waitsBefore = waits();
        for (int i = 1; i <= 2; i++) {
            String id = "m-" + i;
            assertThatThrownBy(() -> queue.scheduleWithId("durable", id, "payload", Duration.ofMinutes(5)))
                    .isInstanceOf(DurabilityUnavailableException.class).isInstanceOf(PacerRedisException.class)
                    .hasMessage("quarkus.pacer.delayed.durability=replicas: message " + id + " of queue durable was not"
                            + " stored: shard 0 of the queue lives on Redis master of client <default>, which has no"
                            + " connected replica, so no replica could confirm the write (on Redis Cluster, a replica"
                            + " promoted after its master failed has none until a node replicates it). Add a replica"
                            + " to that master, or set quarkus.pacer.delayed.durability=primary; other shards are not"
                            + " affected, and the message can be scheduled again");
        }
        assertThat(waits() - waitsBefore).as("WAIT calls").isZero();
        assertThat(queue.size("durable")).isZero();
    }

    /** {@code WAIT} calls Redis has run ({@code INFO commandstats}). */
    private long waits() {
        String stats = redis.send(Request.cmd(Command.INFO).arg("commandstats")).await().atMost(Duration.ofSeconds(5))
                .toString();
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_wait:calls=")) {
                String rest = line.substring("cmdstat_wait:calls=".length());
                return Long.parseLong(rest.substring(0, rest.indexOf(',')));
            }
        }
        return 0;
    }
}
