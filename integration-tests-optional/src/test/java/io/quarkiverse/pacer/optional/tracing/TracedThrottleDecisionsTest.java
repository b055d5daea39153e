package io.quarkiverse.pacer.optional.tracing;

import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.data.EventData;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A throttling decision has no span of its own: it adds a {@code pacer.throttle} event to the caller's span, with the
 * policy, the outcome, the limit, what remains and, when rejected, the retry-after; the key only when
 * {@code quarkus.pacer.tracing.include-throttle-key=true}, as here. A {@code Uni} method's decision, made at
 * subscription and answered on a Redis connection's thread, marks the span current at subscription.
 */
class TracedThrottleDecisionsTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class, Api.class))
            .overrideConfigKey("quarkus.pacer.tracing.include-throttle-key", "true")
            // The tests read the exporter: spans are exported at once instead of every 5 s.
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "10ms");

    @Singleton
    static class Api {
        @Throttled(name = "search", limit = 2, window = "1h")
        String search(@ThrottleKey String tenant) {
            return "hits";
        }

        @Throttled(name = "export", limit = 1, window = "1h")
        Uni<String> export(@ThrottleKey String tenant) {
            return Uni.createFrom().item("file");
        }
    }

    @Inject
    Api api;

    @Inject
    Tracer tracer;

    @Inject
    InMemorySpans spans;

    @Test
    void eachDecisionIsAnEventOnTheCallersSpan() {
        inSpan("blocking calls", () -> {
            assertThat(api.search("acme")).isEqualTo("hits");
            assertThat(api.search("acme")).isEqualTo("hits");
            assertThatThrownBy(() -> api.search("acme")).isInstanceOf(ThrottledException.class);
        });
        List<EventData> events = spans.await(1, named("blocking calls")).get(0).getEvents();
        assertThat(events).extracting(EventData::getName).containsOnly("pacer.throttle").hasSize(3);
        assertThat(events).extracting(event -> event.getAttributes().get(key("pacer.throttle.outcome")))
                .containsExactly("allowed", "allowed", "rejected");
        assertThat(events).extracting(event -> event.getAttributes().get(longKey("pacer.throttle.remaining")))
                .containsExactly(1L, 0L, 0L);
        Attributes rejected = events.get(2).getAttributes();
        assertThat(rejected.get(key("pacer.throttle.policy"))).isEqualTo("search");
        assertThat(rejected.get(key("pacer.throttle.key"))).isEqualTo("acme");
        assertThat(rejected.get(longKey("pacer.throttle.limit"))).isEqualTo(2L);
        assertThat(rejected.get(longKey("pacer.throttle.retry_after_ms"))).isPositive();
        assertThat(rejected.get(AttributeKey.booleanKey("pacer.throttle.fallback"))).isNull();
        assertThat(events.get(0).getAttributes().get(longKey("pacer.throttle.retry_after_ms"))).isNull();
    }

    @Test
    void aUniDecisionMarksTheSpanCurrentAtSubscription() {
        inSpan("reactive calls", () -> {
            assertThat(api.export("acme").await().atMost(Duration.ofSeconds(10))).isEqualTo("file");
            assertThatThrownBy(() -> api.export("acme").await().atMost(Duration.ofSeconds(10)))
                    .isInstanceOf(ThrottledException.class);
        });
        List<EventData> events = spans.await(1, named("reactive calls")).get(0).getEvents();
        assertThat(events).extracting(event -> event.getAttributes().get(key("pacer.throttle.outcome")))
                .containsExactly("allowed", "rejected");
        assertThat(events).extracting(event -> event.getAttributes().get(key("pacer.throttle.policy")))
                .containsOnly("export");
    }

    private void inSpan(String name, Runnable calls) {
        InMemorySpans.inSpan(tracer.spanBuilder(name), calls);
    }

    private static AttributeKey<String> key(String name) {
        return AttributeKey.stringKey(name);
    }

    private static AttributeKey<Long> longKey(String name) {
        return AttributeKey.longKey(name);
    }
}
