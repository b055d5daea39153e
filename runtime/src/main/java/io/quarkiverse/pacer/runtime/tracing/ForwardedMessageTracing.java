package io.quarkiverse.pacer.runtime.tracing;

import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Adds the trace context to a message that a {@code forward-to} queue hands to a Quarkus Messaging channel. The
 * default adds nothing; with OpenTelemetry tracing present the build registers
 * {@link OpenTelemetryForwardedMessageTracing}.
 */
public interface ForwardedMessageTracing {

    ForwardedMessageTracing NONE = metadata -> metadata;

    /** {@code metadata} of an outgoing message, with the current trace context when tracing. */
    Metadata withTraceContext(Metadata metadata);
}
