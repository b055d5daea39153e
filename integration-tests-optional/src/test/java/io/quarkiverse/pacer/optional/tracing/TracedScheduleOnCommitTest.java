package io.quarkiverse.pacer.optional.tracing;

import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.named;
import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.processing;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Inside a JTA transaction the message reaches Redis at the commit, but its trace context is the one of the
 * {@code schedule} call: the transaction commits in the caller's span, and the delivery still belongs to the span in
 * which {@code schedule} was called.
 */
class TracedScheduleOnCommitTest {

    static final String QUEUE = "traced-on-commit";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class, Orders.class, Consumer.class))
            // The tests read the exporter: spans are exported at once instead of every 5 s.
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "10ms");

    @ApplicationScoped
    static class Orders {
        @Inject
        DelayedQueue queue;

        @Inject
        Tracer tracer;

        /** Schedules in span "place order"; the transaction commits after it ended, in the caller's span. */
        @Transactional
        public void place(String order) {
            InMemorySpans.inSpan(tracer.spanBuilder("place order"), () -> {
                queue.scheduleWithId(QUEUE, order, "payload", Duration.ZERO);
                assertThat(queue.size(QUEUE)).isZero(); // stored at the commit
            });
        }
    }

    @Singleton
    static class Consumer {
        @Delayed(QUEUE)
        void on(String payload) {
        }
    }

    @Inject
    Orders orders;

    @Inject
    InMemorySpans spans;

    @Inject
    Tracer tracer;

    @Test
    void theDeliveryBelongsToTheScheduleCallNotToTheCommit() {
        Span caller = InMemorySpans.inSpan(tracer.spanBuilder("caller"), () -> {
            orders.place("o-1");
        });

        SpanData placing = spans.await(1, named("place order")).get(0);
        SpanData send = spans.await(1, named(QUEUE + " send")).get(0);
        SpanData process = spans.await(1, processing(QUEUE, "o-1")).get(0);
        assertThat(placing.getParentSpanId()).isEqualTo(caller.getSpanContext().getSpanId());
        assertThat(send.getParentSpanId()).isEqualTo(placing.getSpanId());
        assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
        assertThat(process.getTraceId()).isEqualTo(placing.getTraceId());
    }
}
