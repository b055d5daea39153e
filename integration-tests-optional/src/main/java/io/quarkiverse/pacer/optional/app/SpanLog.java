package io.quarkiverse.pacer.optional.app;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;

/** The spans the application exported, kept in memory and shown by {@link TracedResource}. */
@Singleton
public class SpanLog {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return exporter;
    }

    /** Every exported span, in start order, as plain values. */
    List<Map<String, Object>> spans() {
        return exporter.getFinishedSpanItems().stream().sorted(Comparator.comparingLong(SpanData::getStartEpochNanos))
                .map(SpanLog::describe).toList();
    }

    private static Map<String, Object> describe(SpanData span) {
        return Map.of("name", span.getName(), "kind", span.getKind().name(), "traceId", span.getTraceId(),
                "spanId", span.getSpanId(), "parentSpanId", span.getParentSpanId(),
                "attributes", attributes(span.getAttributes().asMap()),
                "events", span.getEvents().stream().map(event -> Map.of("name", event.getName(), "attributes",
                        attributes(event.getAttributes().asMap()))).toList());
    }

    private static Map<String, String> attributes(Map<?, Object> attributes) {
        Map<String, String> values = new TreeMap<>();
        attributes.forEach((key, value) -> values.put(key.toString(), String.valueOf(value)));
        return values;
    }
}
