package io.quarkiverse.pacer.runtime.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;

/** The compact trace context stored with a message: 50 characters for a span context alone, and back. */
class TraceContextTextTest {

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String SPAN_ID = "b7ad6b7169203331";

    @Test
    void aSpanContextAloneIsFiftyHexDigits() {
        Context context = Context.root().with(Span.wrap(SpanContext.create(TRACE_ID, SPAN_ID, TraceFlags.getSampled(),
                TraceState.getDefault())));
        String text = TraceContextText.of(context, true);
        assertThat(text).isEqualTo(TRACE_ID + SPAN_ID + "01").hasSize(TraceContextText.PARENT);

        SpanContext parsed = Span.fromContext(TraceContextText.parse(text)).getSpanContext();
        assertThat(parsed.isRemote()).isTrue();
        assertThat(parsed.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(parsed.getSpanId()).isEqualTo(SPAN_ID);
        assertThat(parsed.isSampled()).isTrue();
        assertThat(Baggage.fromContext(TraceContextText.parse(text)).isEmpty()).isTrue();
    }

    @Test
    void traceStateAndBaggageFollowOnlyWhenPresent() {
        TraceState state = TraceState.builder().put("vendor", "a:b;c").put("other", "x").build();
        Context context = Context.root()
                .with(Span.wrap(SpanContext.create(TRACE_ID, SPAN_ID, TraceFlags.getDefault(), state)))
                .with(Baggage.builder().put("tenant", "acme").build());

        String text = TraceContextText.of(context, true);
        assertThat(text).startsWith(TRACE_ID + SPAN_ID + "00");
        Context parsed = TraceContextText.parse(text);
        SpanContext span = Span.fromContext(parsed).getSpanContext();
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.isSampled()).isFalse();
        assertThat(span.getTraceState().asMap()).isEqualTo(state.asMap());
        assertThat(Baggage.fromContext(parsed).getEntryValue("tenant")).isEqualTo("acme");

        // Baggage is stored only when the application propagates it.
        String withoutBaggage = TraceContextText.of(context, false);
        assertThat(Baggage.fromContext(TraceContextText.parse(withoutBaggage)).isEmpty()).isTrue();
        assertThat(Span.fromContext(TraceContextText.parse(withoutBaggage)).getSpanContext().getTraceState().asMap())
                .isEqualTo(state.asMap());
    }

    @Test
    void noValidSpanNothingStored() {
        assertThat(TraceContextText.of(Context.root(), true)).isNull();
        assertThat(Span.fromContext(TraceContextText.parse(null)).getSpanContext().isValid()).isFalse();
        assertThat(Span.fromContext(TraceContextText.parse("not a context")).getSpanContext().isValid()).isFalse();
    }
}
