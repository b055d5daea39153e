package io.quarkiverse.pacer.deployment.tracing;

import static io.quarkiverse.pacer.test.support.RedisCommands.messagesKey;
import static io.quarkiverse.pacer.test.support.RedisCommands.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.tracing.DelayedTracing;
import io.quarkiverse.pacer.runtime.tracing.ThrottleTracing;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Without {@code quarkus-opentelemetry} (the deployment tests never have it): no tracing bean exists, Pacer runs on its
 * no-op tracing, and a message is stored exactly as before tracing existed, with no trace context. OpenTelemetry's API
 * is on the class path all the same (quarkus-scheduler depends on it): a JFR recording of every class loaded from
 * before the application starts until after it scheduled, delivered and throttled proves that none of its classes, and
 * none of Pacer's OpenTelemetry classes, was loaded.
 */
class TracingAbsentTest {

    /** Started before the application, which the extension below starts. */
    static final Recording CLASS_LOADS = new Recording();
    static {
        CLASS_LOADS.enable("jdk.ClassLoad");
        CLASS_LOADS.start();
    }

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, Limited.class, RedisCommands.class));

    @Singleton
    static class Consumer {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Delayed("untraced")
        void on(String payload) {
            received.add(payload);
        }
    }

    @Singleton
    static class Limited {
        @Throttled(limit = 5, window = "1h")
        String call() {
            return "ok";
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    PacerRedis redis;

    @Inject
    Consumer consumer;

    @Inject
    Limited limited;

    @Test
    void nothingIsTracedNorStored() throws IOException {
        assertThat(Arc.container().select(DelayedTracing.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(ThrottleTracing.class).isResolvable()).isFalse();

        assertThat(limited.call()).isEqualTo("ok");
        queue.scheduleWithId("untraced", "m", "hello", Duration.ofHours(1));
        // <encoding><due>:<attempts>:<redeliveries>:<payload>, the layout of messages stored before tracing existed
        String stored = send(redis, "HGET", messagesKey("untraced"), "m").toString();
        assertThat(stored).matches("t\\d+:0:0:hello");

        queue.deliverNow("untraced", "m");
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.received.size() == 1);
        assertThat(consumer.received).containsExactly("hello");

        assertThat(loadedClasses()).isNotEmpty().filteredOn(name -> name.contains("opentelemetry")
                || name.contains("OpenTelemetry") || name.endsWith(".TraceContextText")).isEmpty();
    }

    private static List<String> loadedClasses() throws IOException {
        CLASS_LOADS.stop();
        Path file = Files.createTempFile("class-loads", ".jfr");
        try {
            CLASS_LOADS.dump(file);
            List<String> names = new ArrayList<>();
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                RecordedClass loaded = event.getValue("loadedClass");
                names.add(loaded.getName());
            }
            return names;
        } finally {
            CLASS_LOADS.close();
            Files.deleteIfExists(file);
        }
    }
}
