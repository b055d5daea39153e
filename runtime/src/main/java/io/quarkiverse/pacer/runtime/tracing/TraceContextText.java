package io.quarkiverse.pacer.runtime.tracing;

import java.util.HashMap;
import java.util.Map;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

/**
 * The trace context stored with a message, in compact text: the W3C {@code traceparent} without its version and
 * dashes (trace id, span id and flags in 50 hex digits), then, only when not empty, {@code <n>:<tracestate>} (n its
 * length) and the W3C {@code baggage} header. The common case, a context without trace state or baggage, costs 50
 * characters, fewer than the {@code traceparent} header itself.
 */
final class TraceContextText {

    private static final int TRACE_ID = 32;
    private static final int SPAN_ID = 16;
    /** Trace id, span id and flags. */
    static final int PARENT = TRACE_ID + SPAN_ID + 2;

    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";
    private static final String BAGGAGE = "baggage";

    private TraceContextText() {
    }

    /** {@code context} as stored text, {@code null} when it holds no valid span context. */
    static String of(Context context, boolean withBaggage) {
        SpanContext span = Span.fromContext(context).getSpanContext();
        if (!span.isValid()) {
            return null;
        }
        StringBuilder text = new StringBuilder(PARENT).append(span.getTraceId()).append(span.getSpanId())
                .append(span.getTraceFlags().asHex());
        Baggage baggage = withBaggage ? Baggage.fromContext(context) : Baggage.empty();
        if (span.getTraceState().isEmpty() && baggage.isEmpty()) {
            return text.toString();
        }
        Map<String, String> headers = new HashMap<>(4);
        W3CTraceContextPropagator.getInstance().inject(context, headers, Map::put);
        if (!baggage.isEmpty()) {
            W3CBaggagePropagator.getInstance().inject(context, headers, Map::put);
        }
        String state = headers.getOrDefault(TRACESTATE, "");
        return text.append(state.length()).append(':').append(state).append(headers.getOrDefault(BAGGAGE, ""))
                .toString();
    }

    /** The context stored as {@code text} (a remote span context, and baggage if stored); root when unreadable. */
    static Context parse(String text) {
        if (text == null || text.length() < PARENT) {
            return Context.root();
        }
        Map<String, String> headers = new HashMap<>(4);
        headers.put(TRACEPARENT, "00-" + text.substring(0, TRACE_ID) + "-" + text.substring(TRACE_ID, TRACE_ID + SPAN_ID)
                + "-" + text.substring(TRACE_ID + SPAN_ID, PARENT));
        int colon = text.indexOf(':', PARENT);
        if (colon > PARENT) {
            try {
                int stateEnd = colon + 1 + Integer.parseInt(text, PARENT, colon, 10);
                if (stateEnd <= text.length()) {
                    headers.put(TRACESTATE, text.substring(colon + 1, stateEnd));
                    headers.put(BAGGAGE, text.substring(stateEnd));
                }
            } catch (NumberFormatException e) {
                // Not written by Pacer: the span context alone.
            }
        }
        Context context = W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, HEADERS);
        return headers.containsKey(BAGGAGE) ? W3CBaggagePropagator.getInstance().extract(context, headers, HEADERS)
                : context;
    }

    private static final TextMapGetter<Map<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };
}
