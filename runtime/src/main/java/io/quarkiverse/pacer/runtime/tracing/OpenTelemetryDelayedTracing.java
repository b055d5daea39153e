package io.quarkiverse.pacer.runtime.tracing;

import jakarta.inject.Singleton;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.quarkus.opentelemetry.runtime.QuarkusContextStorage;
import io.smallrye.mutiny.Uni;

/**
 * Delay-queue spans after OpenTelemetry's messaging semantic conventions ({@code messaging.system} = {@code pacer}):
 * a PRODUCER span {@code <queue> send} per schedule call, whose context is stored with its messages, and a CONSUMER
 * span {@code <queue> process} per delivery attempt, a child of that stored context, so the delivery belongs to the
 * trace of the request that scheduled it, in whichever instance and however late it runs.
 */
@Singleton
public class OpenTelemetryDelayedTracing implements DelayedTracing {

    static final String INSTRUMENTATION = "io.quarkiverse.pacer";

    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<Long> BATCH_COUNT = AttributeKey.longKey("messaging.batch.message_count");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("pacer.delayed.attempt");
    static final AttributeKey<Long> REDELIVERIES = AttributeKey.longKey("pacer.delayed.redeliveries");
    static final AttributeKey<Long> LATENESS = AttributeKey.longKey("pacer.delayed.lateness_ms");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("pacer.delayed.outcome");
    static final AttributeKey<Long> RETRY_DELAY = AttributeKey.longKey("pacer.delayed.retry_delay_ms");

    private static final String SYSTEM_NAME = "pacer";

    private final Tracer tracer;
    /** Whether the application propagates W3C baggage: then it is stored with messages too. */
    private final boolean baggage;
    /** Switched off only by benchmarks comparing tracing on and off in one run: then nothing is traced or stored. */
    private volatile boolean on = true;

    OpenTelemetryDelayedTracing(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
        this.baggage = openTelemetry.getPropagators().getTextMapPropagator().fields().contains("baggage");
    }

    /** Turns delay-queue tracing on or off at runtime, for benchmarks comparing both in one run. */
    public void tracing(boolean on) {
        this.on = on;
    }

    @Override
    public ProducerTrace send(String queue, String id, int count) {
        if (!on) {
            return ProducerTrace.NONE;
        }
        // The caller's context, looked up once (Quarkus's context storage reads it from the Vert.x context).
        Context parent = Context.current();
        SpanBuilder builder = tracer.spanBuilder(queue + " send").setParent(parent).setSpanKind(SpanKind.PRODUCER)
                .setAttribute(SYSTEM, SYSTEM_NAME).setAttribute(DESTINATION, queue)
                .setAttribute(OPERATION_TYPE, "send").setAttribute(OPERATION_NAME, "send");
        if (id != null) {
            builder.setAttribute(MESSAGE_ID, id);
        }
        if (count != 1) {
            builder.setAttribute(BATCH_COUNT, (long) count);
        }
        Span span = builder.startSpan();
        return new Producer(span, TraceContextText.of(parent.with(span), baggage));
    }

    @Override
    public DeliveryTrace process(String queue, String id, int attempt, int redeliveries, long latenessMillis,
            String traceContext, io.vertx.core.Context handlerContext) {
        if (!on) {
            return DeliveryTrace.NONE;
        }
        Context parent = TraceContextText.parse(traceContext);
        Span span = tracer.spanBuilder(queue + " process").setParent(parent).setSpanKind(SpanKind.CONSUMER)
                .setAttribute(SYSTEM, SYSTEM_NAME).setAttribute(DESTINATION, queue)
                .setAttribute(OPERATION_TYPE, "process").setAttribute(OPERATION_NAME, "process")
                .setAttribute(MESSAGE_ID, id).setAttribute(ATTEMPT, (long) attempt)
                .setAttribute(REDELIVERIES, (long) redeliveries).setAttribute(LATENESS, latenessMillis)
                .startSpan();
        // The handler's context for its whole run: its spans are children, its log lines carry the trace id (MDC).
        QuarkusContextStorage.INSTANCE.attach(handlerContext, parent.with(span));
        return (outcome, delayMillis, failure) -> {
            span.setAttribute(OUTCOME, outcome.value);
            if (delayMillis >= 0) {
                span.setAttribute(RETRY_DELAY, delayMillis);
            }
            if (failure != null) {
                span.recordException(failure);
                if (outcome != DeliveryOutcome.THROTTLED) {
                    span.setStatus(StatusCode.ERROR);
                }
            }
            span.end();
        };
    }

    private record Producer(Span span, String context) implements ProducerTrace {

        @Override
        public <T> Uni<T> ending(Uni<T> stored) {
            return stored.onItemOrFailure().invoke((item, failure) -> end(failure)).onCancellation().invoke(span::end);
        }

        @Override
        public void end(Throwable failure) {
            if (failure != null) {
                span.recordException(failure);
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }
}
