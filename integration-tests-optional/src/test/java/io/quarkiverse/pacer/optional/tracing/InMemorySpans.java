package io.quarkiverse.pacer.optional.tracing;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.awaitility.Awaitility;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;

/** The spans the application exported, kept in memory for the tests to read. */
@Singleton
public class InMemorySpans {

    public static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("pacer.delayed.outcome");
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("pacer.delayed.attempt");

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return exporter;
    }

    public void reset() {
        exporter.reset();
    }

    /** The exported spans that match, in start order, once there are {@code count} of them. */
    public List<SpanData> await(int count, Predicate<SpanData> matching) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> matching(matching).size() >= count);
        return matching(matching);
    }

    public List<SpanData> matching(Predicate<SpanData> matching) {
        return exporter.getFinishedSpanItems().stream().filter(matching)
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
    }

    /** Runs {@code work} with the span {@code builder} starts current, then ends it; returns the span. */
    public static Span inSpan(SpanBuilder builder, Runnable work) {
        Span span = builder.startSpan();
        try (Scope ignored = span.makeCurrent()) {
            work.run();
        } finally {
            span.end();
        }
        return span;
    }

    public static Predicate<SpanData> named(String name) {
        return span -> span.getName().equals(name);
    }

    /** The {@code <queue> process} spans of message {@code id}, one per delivery attempt. */
    public static Predicate<SpanData> processing(String queue, String id) {
        return span -> span.getName().equals(queue + " process")
                && id.equals(span.getAttributes().get(AttributeKey.stringKey("messaging.message.id")));
    }
}
