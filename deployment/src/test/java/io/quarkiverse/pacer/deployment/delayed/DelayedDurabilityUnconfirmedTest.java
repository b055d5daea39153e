package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.DurabilityUnconfirmedException;
import io.quarkiverse.pacer.delay.PacerRedisException;
import io.quarkiverse.pacer.devservices.common.LocalRedisServerChoice;
import io.quarkiverse.pacer.devservices.common.RedisProcess;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code durability=replicas} and a replica that is connected but does not answer (its process stopped),
 * {@code schedule} stores the message and fails with {@link DurabilityUnconfirmedException} once
 * {@code durability-timeout} has passed; when the replica runs again, durable writes succeed again.
 */
class DelayedDurabilityUnconfirmedTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.durability", "replicas")
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "false")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class));

    @Singleton
    static class Consumer {
        @Delayed("unconfirmed")
        void on(String payload) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Test
    void aWriteNoReplicaConfirmsIsStoredAndReported() throws Exception {
        String primary = ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class).split(",")[0];
        int primaryPort = URI.create(primary).getPort();
        Path dir = Files.createTempDirectory("pacer-unconfirmed");
        RedisProcess replica = RedisProcess.start(LocalRedisServerChoice.choose(LocalRedisServerChoice.AUTO).path(), dir,
                RedisProcess.freeNodePorts(1).get(0),
                List.of("--replicaof", "127.0.0.1", Integer.toString(primaryPort)), null);
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> RedisProcess.command(primaryPort, "INFO", "replication").contains("state=online"));
            queue.scheduleWithId("unconfirmed", "confirmed", "payload", Duration.ofMinutes(5));

            signal("STOP", replica);
            assertThatThrownBy(() -> queue.scheduleWithId("unconfirmed", "stopped", "payload", Duration.ofMinutes(5)))
                    .isInstanceOf(DurabilityUnconfirmedException.class).isInstanceOf(PacerRedisException.class)
                    .hasMessageStartingWith("quarkus.pacer.delayed.durability=replicas: message stopped of queue"
                            + " unconfirmed stored by the primary but not confirmed by a replica within PT1S"
                            + " (quarkus.pacer.delayed.durability-timeout)")
                    .satisfies(e -> assertThat(((DurabilityUnconfirmedException) e).queue()).isEqualTo("unconfirmed"));
            assertThat(queue.size("unconfirmed")).as("stored by the primary").isEqualTo(2);

            signal("CONT", replica);
            queue.scheduleWithId("unconfirmed", "resumed", "payload", Duration.ofMinutes(5));
            assertThat(queue.size("unconfirmed")).isEqualTo(3);
        } finally {
            signal("CONT", replica);
            replica.stop();
            RedisProcess.deleteQuietly(dir);
        }
    }

    private static void signal(String signal, RedisProcess process) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        assertThat(exit).as("kill -" + signal).isZero();
    }
}
