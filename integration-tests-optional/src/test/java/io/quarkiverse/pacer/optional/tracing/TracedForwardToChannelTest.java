package io.quarkiverse.pacer.optional.tracing;

import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.named;
import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.processing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.reactive.messaging.TracingMetadata;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import io.smallrye.reactive.messaging.memory.InMemorySink;

/**
 * A queue forwarded to a Quarkus Messaging channel hands over its messages with the {@link TracingMetadata} the
 * connectors read: the context of the delivery's {@code <queue> process} span, in the trace of the request that
 * scheduled the message, so the broker's consumers continue that trace.
 */
class TracedForwardToChannelTest {

    static final String QUEUE = "traced-handoff";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class))
            .overrideConfigKey("quarkus.pacer.delayed.\"" + QUEUE + "\".forward-to", "broker")
            .overrideConfigKey("mp.messaging.outgoing.broker.connector", "smallrye-in-memory")
            // The tests read the exporter: spans are exported at once instead of every 5 s.
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "10ms");

    @Inject
    DelayedQueue queue;

    @Inject
    Tracer tracer;

    @Inject
    InMemorySpans spans;

    @Inject
    @Any
    InMemoryConnector connector;

    @Test
    void theOutgoingMessageCarriesTheDeliverysTraceContext() {
        InMemorySink<Object> broker = connector.sink("broker");
        Span request = InMemorySpans.inSpan(tracer.spanBuilder("POST /handoff"), () -> {
            queue.scheduleWithId(QUEUE, "h1", "to the broker", Duration.ZERO);
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> broker.received().size() == 1);
        Message<Object> forwarded = broker.received().get(0);
        TracingMetadata tracing = forwarded.getMetadata(TracingMetadata.class).orElseThrow();
        SpanContext carried = Span.fromContext(tracing.getCurrentContext()).getSpanContext();

        SpanData send = spans.await(1, named(QUEUE + " send")).get(0);
        SpanData process = spans.await(1, processing(QUEUE, "h1")).get(0);
        assertThat(carried.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
        assertThat(carried.getSpanId()).isEqualTo(process.getSpanId());
        assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
        assertThat(process.getAttributes().get(InMemorySpans.OUTCOME)).isEqualTo("success");
    }
}
