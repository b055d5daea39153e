package io.quarkiverse.pacer.optional.tracing;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;

/**
 * Draws the spans of one trace as a text timeline (one line per span, children indented under their parent, a bar
 * placed by start time and length), the picture of a trace the Observability page shows.
 */
final class TraceTimeline {

    private static final int WIDTH = 40;

    private TraceTimeline() {
    }

    static String draw(List<SpanData> trace) {
        List<SpanData> spans = trace.stream().sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
        long start = spans.get(0).getStartEpochNanos();
        long end = spans.stream().mapToLong(SpanData::getEndEpochNanos).max().orElse(start + 1);
        double scale = WIDTH / (double) Math.max(1, end - start);
        StringBuilder out = new StringBuilder("trace ").append(spans.get(0).getTraceId()).append('\n');
        for (SpanData span : spans) {
            int depth = depth(span, spans);
            String label = "  ".repeat(depth) + span.getName() + " (" + span.getKind() + ")";
            int from = (int) ((span.getStartEpochNanos() - start) * scale);
            int length = Math.max(1, (int) ((span.getEndEpochNanos() - span.getStartEpochNanos()) * scale));
            String bar = " ".repeat(Math.min(from, WIDTH - 1)) + "=".repeat(Math.min(length, WIDTH - Math.min(from,
                    WIDTH - 1)));
            out.append(String.format("%-34s |%-" + WIDTH + "s| %7.1f ms  span %s%s%n", label, bar,
                    (span.getEndEpochNanos() - span.getStartEpochNanos()) / 1e6, span.getSpanId(), attributes(span)));
        }
        out.append(String.format("%-34s  0 ms%" + (WIDTH - 4) + "s%n", "", TimeUnit.NANOSECONDS.toMillis(end - start)
                + " ms"));
        return out.toString();
    }

    private static int depth(SpanData span, List<SpanData> spans) {
        int depth = 0;
        String parent = span.getParentSpanId();
        while (true) {
            String current = parent;
            SpanData found = spans.stream().filter(s -> s.getSpanId().equals(current)).findFirst().orElse(null);
            if (found == null) {
                return depth;
            }
            depth++;
            parent = found.getParentSpanId();
        }
    }

    private static String attributes(SpanData span) {
        Map<String, Object> shown = new TreeMap<>();
        span.getAttributes().forEach((key, value) -> {
            if (key.getKey().startsWith("pacer.") || key.getKey().startsWith("messaging.")) {
                shown.put(key.getKey(), value);
            }
        });
        Object statement = span.getAttributes().get(AttributeKey.stringKey("db.operation.name"));
        if (statement != null) {
            shown.put("db.operation.name", statement);
        }
        return shown.isEmpty() ? "" : "\n" + " ".repeat(37) + shown;
    }
}
