package io.quarkiverse.pacer.optional.tracing;

import static io.quarkiverse.pacer.optional.tracing.RedisHash.stored;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.tracing.DelayedTracing;
import io.quarkiverse.pacer.runtime.tracing.ThrottleTracing;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.pacer.tracing.enabled=false} with OpenTelemetry tracing present: Pacer registers no tracing bean,
 * adds no span or event, and stores messages without a trace context; the application's own spans go on.
 */
class TracingDisabledTest {

    static final String QUEUE = "untraced";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class, RedisHash.class, Consumer.class,
                    Limited.class))
            .overrideConfigKey("quarkus.pacer.tracing.enabled", "false")
            // The tests read the exporter: spans are exported at once instead of every 5 s.
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "10ms");

    @Singleton
    static class Consumer {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Delayed(QUEUE)
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
    Tracer tracer;

    @Inject
    InMemorySpans spans;

    @Inject
    Consumer consumer;

    @Inject
    Limited limited;

    @Inject
    PacerRedis redis;

    @Test
    void pacerAddsNothingToTraces() {
        assertThat(Arc.container().select(DelayedTracing.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(ThrottleTracing.class).isResolvable()).isFalse();

        Span request = InMemorySpans.inSpan(tracer.spanBuilder("request"), () -> {
            assertThat(limited.call()).isEqualTo("ok");
            queue.scheduleWithId(QUEUE, "later", "stored plain", Duration.ofHours(1));
            queue.scheduleWithId(QUEUE, "now", "hello", Duration.ZERO);
        });
        assertThat(stored(redis, QUEUE, "later")).matches("t\\d+:0:0:stored plain");
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.received.contains("hello"));

        assertThat(spans.await(1, InMemorySpans.named("request"))).singleElement()
                .satisfies(span -> assertThat(span.getEvents()).isEmpty());
        // Only the Redis client's own spans (one per command) and the application's: none of Pacer's.
        assertThat(spans.matching(span -> span.getName().contains(QUEUE)
                || span.getAttributes().get(AttributeKey.stringKey("messaging.system")) != null)).isEmpty();
    }
}
