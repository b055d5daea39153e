package io.quarkiverse.pacer.optional.tracing;

import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.named;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Pacer's own Redis commands (a decision's script call, a consumer's claims and acknowledgements, a schedule, its
 * subscriptions) make no Redis command span: Pacer's connections opt out of Quarkus's Redis client instrumentation,
 * which would otherwise add a span per decision on the hot path and a root span per claim poll of an idle consumer.
 * Pacer's own spans and events say what happened. The application's own Redis commands keep their spans.
 */
class PacerRedisCommandsUntracedTest {

    static final String QUEUE = "untraced";
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("db.operation");

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class, Api.class, Consumer.class))
            // The tests read the exporter: spans are exported at once instead of every 5 s.
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "10ms");

    @Singleton
    static class Api {
        @Throttled(name = "untraced", limit = 100, window = "1h")
        String call() {
            return "ok";
        }
    }

    @Singleton
    static class Consumer {
        final Set<String> delivered = ConcurrentHashMap.newKeySet();

        @Delayed(QUEUE)
        void on(String payload) {
            delivered.add(payload);
        }
    }

    @Inject
    Api api;

    @Inject
    Consumer consumer;

    @Inject
    DelayedQueue queue;

    @Inject
    RedisDataSource redis;

    @Inject
    Tracer tracer;

    @Inject
    InMemorySpans spans;

    @Test
    void pacersCommandsHaveNoSpanTheApplicationsKeepTheirs() {
        InMemorySpans.inSpan(tracer.spanBuilder("calls"), () -> {
            for (int i = 0; i < 3; i++) {
                assertThat(api.call()).isEqualTo("ok");
            }
            queue.scheduleWithId(QUEUE, "m1", "payload", Duration.ZERO);
            redis.value(String.class).set("untraced-application-key", "value");
        });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> consumer.delivered.contains("payload"));
        SpanData calls = spans.await(1, named("calls")).get(0);
        assertThat(calls.getEvents()).extracting(event -> event.getName()).containsOnly("pacer.throttle").hasSize(3);

        // The application's SET has its CLIENT span: the Redis client instrumentation is on.
        List<SpanData> applicationCommands = spans.await(1,
                span -> span.getKind() == SpanKind.CLIENT && "set".equals(span.getAttributes().get(OPERATION)));
        assertThat(applicationCommands).hasSize(1);

        // Pacer's own spans are there (m1's send and process spans), and none of its Redis commands: its script calls,
        // claims, acknowledgements, override refreshes and subscriptions all go over its own connections.
        spans.await(1, span -> span.getName().equals(QUEUE + " process"));
        assertThat(spans.matching(span -> span.getKind() == SpanKind.CLIENT))
                .extracting(span -> span.getAttributes().get(OPERATION)).as("the Redis command spans")
                .containsExactly("set");
    }
}
