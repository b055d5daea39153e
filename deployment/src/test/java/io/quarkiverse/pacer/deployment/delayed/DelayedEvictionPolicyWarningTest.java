package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.deployment.devservices.LocalRedisServer;
import io.quarkiverse.pacer.deployment.devservices.LocalRedisServerChoice;
import io.quarkiverse.pacer.runtime.delay.consumer.RedisEvictionPolicyCheck;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Redis that may evict keys ({@code maxmemory-policy allkeys-lru}) loses delay-queue messages when full: startup
 * warns, naming the policy and the fix; the check reads the policy with CONFIG GET (INFO where CONFIG is refused).
 */
class DelayedEvictionPolicyWarningTest {

    static final String WARNING = "Redis (client <default>) runs with maxmemory-policy allkeys-lru: when it reaches"
            + " maxmemory it evicts keys, and delay-queue messages evicted are lost. Set maxmemory-policy to noeviction"
            + " (redis.conf, CONFIG SET maxmemory-policy noeviction, or the setting of your managed Redis) for delay"
            + " queues that never lose messages";

    static final LocalRedisServer EVICTING_SERVER = startEvictingServer();

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class))
            .overrideConfigKey("quarkus.redis.hosts", "redis://" + EVICTING_SERVER.getConnectionInfo())
            .setLogRecordPredicate(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
            // One warning at startup, one from the test's own check.
            .assertLogRecords(records -> assertThat(warnings(records)).containsExactly(WARNING, WARNING));

    @Singleton
    static class Consumer {
        @Delayed("evictable")
        void on(String payload) {
        }
    }

    private static final String HOLDER = "pacer.test.evicting-redis-server";

    /** Started once although JUnit and Quarkus each load this class (see PacerDevServicesNotStartedWhenHostsConfiguredTest). */
    static LocalRedisServer startEvictingServer() {
        Object existing = System.getProperties().get(HOLDER);
        if (existing instanceof LocalRedisServer server) {
            return server;
        }
        LocalRedisServer server = new LocalRedisServer(LocalRedisServerChoice.choose(LocalRedisServerChoice.AUTO), "test",
                "started by the test");
        server.start();
        configSet(server.port(), "maxmemory-policy", "allkeys-lru");
        System.getProperties().put(HOLDER, server);
        return server;
    }

    @AfterAll
    static void stopEvictingServer() {
        System.getProperties().remove(HOLDER);
        EVICTING_SERVER.close();
    }

    @Inject
    PacerRedis redis;

    @Test
    void checkReadsThePolicy() {
        assertThat(new RedisEvictionPolicyCheck(redis).check().await()
                .atMost(Duration.ofSeconds(10))).isEqualTo("allkeys-lru");
    }

    private static List<String> warnings(List<LogRecord> records) {
        return records.stream().map(DelayedEvictionPolicyWarningTest::format)
                .filter(message -> message.contains("maxmemory-policy")).collect(Collectors.toList());
    }

    private static String format(LogRecord record) {
        Object[] parameters = record.getParameters();
        return parameters == null ? record.getMessage() : String.format(record.getMessage(), parameters);
    }

    /** CONFIG SET over a plain socket, before any Quarkus client exists. */
    private static void configSet(int port, String name, String value) {
        try (Socket socket = new Socket("localhost", port)) {
            OutputStream out = socket.getOutputStream();
            StringBuilder command = new StringBuilder("*4\r\n");
            for (String part : new String[] { "CONFIG", "SET", name, value }) {
                command.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part)
                        .append("\r\n");
            }
            out.write(command.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[5];
            int read = in.readNBytes(reply, 0, 5);
            String text = new String(reply, 0, read, StandardCharsets.US_ASCII);
            if (!text.equals("+OK\r\n")) {
                throw new IllegalStateException("CONFIG SET " + name + " " + value + " answered " + text);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
