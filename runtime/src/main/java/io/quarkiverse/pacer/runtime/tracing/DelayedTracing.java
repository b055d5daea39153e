package io.quarkiverse.pacer.runtime.tracing;

import io.vertx.core.Context;

/**
 * Where delay queues report to tracing. The default does nothing; with {@code quarkus-opentelemetry} tracing present
 * (and {@code quarkus.pacer.tracing.enabled}), the build registers {@link OpenTelemetryDelayedTracing}. This interface
 * and its no-op implementation name no OpenTelemetry type, so without OpenTelemetry none is ever loaded.
 */
public interface DelayedTracing {

    DelayedTracing NONE = new DelayedTracing() {
        @Override
        public ProducerTrace send(String queue, String id, int count) {
            return ProducerTrace.NONE;
        }

        @Override
        public DeliveryTrace process(String queue, String id, int attempt, int redeliveries, long latenessMillis,
                String traceContext, Context handlerContext) {
            return DeliveryTrace.NONE;
        }
    };

    /**
     * A producer stores {@code count} messages of {@code queue} now ({@code id} when one): starts its PRODUCER span
     * in the caller's context.
     */
    ProducerTrace send(String queue, String id, int count);

    /**
     * A delivery attempt of message {@code id} starts: its CONSUMER span, a child of the context stored with the
     * message ({@code traceContext}, {@code null} when none), becomes the current context of {@code handlerContext},
     * the duplicated Vert.x context the handler runs on, so the handler's spans and log lines carry its trace.
     */
    DeliveryTrace process(String queue, String id, int attempt, int redeliveries, long latenessMillis,
            String traceContext, Context handlerContext);
}
