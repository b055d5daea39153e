package io.quarkiverse.pacer.runtime.tracing;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.opentelemetry.context.Context;
import io.smallrye.reactive.messaging.TracingMetadata;

/**
 * Gives a forwarded message the {@link TracingMetadata} Quarkus Messaging's connectors read: the context of the
 * delivery's {@code <queue> process} span (current while the message is handed over), so the connector's span and the
 * broker's consumers continue the trace of the request that scheduled it.
 */
@Singleton
public class OpenTelemetryForwardedMessageTracing implements ForwardedMessageTracing {

    @Override
    public Metadata withTraceContext(Metadata metadata) {
        return metadata.with(TracingMetadata.withCurrent(Context.current()));
    }
}
