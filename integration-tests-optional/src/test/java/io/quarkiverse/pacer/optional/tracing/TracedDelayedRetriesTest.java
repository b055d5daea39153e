package io.quarkiverse.pacer.optional.tracing;

import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.ATTEMPT;
import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.OUTCOME;
import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.processing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every delivery attempt is a {@code <queue> process} span of the trace that scheduled the message, telling how it
 * ended: a failure records the exception and is retried (with the delay until the next attempt) or dead-lettered; a
 * rate-limited handler is rescheduled without consuming an attempt, and its span carries the throttling event. A
 * replayed dead letter stays in its original trace.
 */
class TracedDelayedRetriesTest {

    static final String FLAKY = "traced-flaky";
    static final String LIMITED = "traced-limited";
    static final AttributeKey<Long> RETRY_DELAY = AttributeKey.longKey("pacer.delayed.retry_delay_ms");

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class, Flaky.class, Limited.class))
            // The tests read the exporter: spans are exported at once instead of every 5 s.
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "10ms");

    @Singleton
    static class Flaky {
        @Delayed(value = FLAKY, maxAttempts = 3, backoff = "50ms")
        void on(DelayedMessage<String> message) {
            if (message.payload().equals("never") || message.attempt() < 3) {
                throw new IllegalStateException("attempt " + message.attempt() + " failed");
            }
        }
    }

    @Singleton
    static class Limited {
        final List<String> handled = new CopyOnWriteArrayList<>();

        @Delayed(value = LIMITED, concurrency = 1)
        @Throttled(name = "partner", limit = 1, window = "1h")
        void on(DelayedMessage<String> message) {
            handled.add(message.id());
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Tracer tracer;

    @Inject
    InMemorySpans spans;

    @Inject
    Limited limited;

    @BeforeEach
    void reset() {
        spans.reset();
    }

    @Test
    void eachAttemptIsASpanUntilSuccess() {
        String traceId = scheduleInSpan(FLAKY, "third-time-lucky", "ok");

        List<SpanData> attempts = spans.await(3, processing(FLAKY, "third-time-lucky"));
        assertThat(attempts).extracting(span -> span.getAttributes().get(ATTEMPT)).containsExactly(1L, 2L, 3L);
        assertThat(attempts).extracting(span -> span.getAttributes().get(OUTCOME)).containsExactly("retry", "retry",
                "success");
        assertThat(attempts).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(traceId));
        for (SpanData failed : attempts.subList(0, 2)) {
            assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(failed.getAttributes().get(RETRY_DELAY)).isNotNegative();
            assertThat(failed.getEvents()).extracting(EventData::getName).containsExactly("exception");
            assertThat(failed.getEvents().get(0).getAttributes().get(AttributeKey.stringKey("exception.message")))
                    .isEqualTo("attempt " + failed.getAttributes().get(ATTEMPT) + " failed");
        }
        assertThat(attempts.get(2).getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(attempts.get(2).getAttributes().get(RETRY_DELAY)).isNull();
    }

    @Test
    void theLastFailureIsADeadLetterAndAReplayStaysInTheTrace() {
        String traceId = scheduleInSpan(FLAKY, "doomed", "never");

        List<SpanData> attempts = spans.await(3, processing(FLAKY, "doomed"));
        assertThat(attempts).extracting(span -> span.getAttributes().get(OUTCOME)).containsExactly("retry", "retry",
                "dead_letter");
        assertThat(attempts.get(2).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.deadLetterCount(FLAKY) == 1);

        Span operator = InMemorySpans.inSpan(tracer.spanBuilder("operator replays"), () -> {
            assertThat(queue.replay(FLAKY, "doomed")).isTrue();
        });
        List<SpanData> again = spans.await(6, processing(FLAKY, "doomed"));
        assertThat(again.subList(3, 6)).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(traceId)
                .isNotEqualTo(operator.getSpanContext().getTraceId()));
        assertThat(again.get(3).getAttributes().get(ATTEMPT)).isEqualTo(1L);
    }

    @Test
    void aThrottledAttemptIsRescheduledAndShowsTheRejection() {
        scheduleInSpan(LIMITED, "first", "a");
        await().atMost(Duration.ofSeconds(10)).until(() -> limited.handled.contains("first"));
        String traceId = scheduleInSpan(LIMITED, "second", "b");

        SpanData throttled = spans.await(1, processing(LIMITED, "second")).get(0);
        assertThat(throttled.getTraceId()).isEqualTo(traceId);
        assertThat(throttled.getAttributes().get(OUTCOME)).isEqualTo("throttled");
        assertThat(throttled.getAttributes().get(ATTEMPT)).isEqualTo(1L);
        assertThat(throttled.getAttributes().get(RETRY_DELAY)).isPositive();
        assertThat(throttled.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        EventData decision = throttled.getEvents().stream().filter(event -> event.getName().equals("pacer.throttle"))
                .findFirst().orElseThrow();
        assertThat(decision.getAttributes().get(AttributeKey.stringKey("pacer.throttle.policy"))).isEqualTo("partner");
        assertThat(decision.getAttributes().get(AttributeKey.stringKey("pacer.throttle.outcome"))).isEqualTo("rejected");
        assertThat(decision.getAttributes().get(AttributeKey.longKey("pacer.throttle.remaining"))).isZero();
        assertThat(decision.getAttributes().get(AttributeKey.longKey("pacer.throttle.retry_after_ms"))).isPositive();
        assertThat(decision.getAttributes().get(AttributeKey.stringKey("pacer.throttle.key"))).isNull();

        SpanData first = spans.await(1, processing(LIMITED, "first")).get(0);
        assertThat(first.getAttributes().get(OUTCOME)).isEqualTo("success");
        assertThat(first.getEvents()).filteredOn(event -> event.getName().equals("pacer.throttle")).singleElement()
                .satisfies(event -> assertThat(event.getAttributes().get(AttributeKey.stringKey(
                        "pacer.throttle.outcome"))).isEqualTo("allowed"));
        assertThat(limited.handled).containsExactly("first");
        assertThat(queue.size(LIMITED)).isEqualTo(1);
    }

    /** Schedules a message due now inside a span of its own; returns the span's trace id. */
    private String scheduleInSpan(String queueName, String id, String payload) {
        Span request = InMemorySpans.inSpan(tracer.spanBuilder("request " + id), () -> {
            queue.scheduleWithId(queueName, id, payload, Duration.ZERO);
        });
        return request.getSpanContext().getTraceId();
    }
}
