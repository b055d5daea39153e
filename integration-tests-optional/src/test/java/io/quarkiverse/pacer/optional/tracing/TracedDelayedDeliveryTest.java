package io.quarkiverse.pacer.optional.tracing;

import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.named;
import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.processing;
import static io.quarkiverse.pacer.optional.tracing.RedisHash.dueKey;
import static io.quarkiverse.pacer.optional.tracing.RedisHash.messagesKey;
import static io.quarkiverse.pacer.optional.tracing.RedisHash.send;
import static io.quarkiverse.pacer.optional.tracing.RedisHash.stored;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringSchedules;
import io.quarkiverse.pacer.delay.ScheduledMessage;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A delivery continues the trace of the request that scheduled it: the {@code <queue> send} PRODUCER span is a child
 * of the caller's span, its context travels through Redis with the message, and the {@code <queue> process} CONSUMER
 * span, started by the consumer loop with no context of its own, is its child, current while the handler runs (the
 * handler's own spans and its log lines' MDC carry the trace id). {@code deliverNow} and upserts keep the context the
 * message was first scheduled with; {@code scheduleAll} is one span for its messages; a message stored before tracing
 * existed is delivered in a trace of its own, and one another instance stored continues that instance's trace. A
 * schedule Redis refuses ends its span with the error. The context costs 53 characters per message, less than a
 * {@code traceparent} header. Each tick of a recurring schedule is a trace of its own, started by the firing instance's
 * {@code <queue> send} span; with {@code quarkus.scheduler.tracing.enabled}, each run of a {@code PACER} job is a span
 * of its own named after the job.
 */
class TracedDelayedDeliveryTest {

    static final String QUEUE = "traced";
    static final String TICKS = "traced-ticks";
    /** {@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>} */
    static final int TRACEPARENT_LENGTH = 55;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class, RedisHash.class, TraceTimeline.class,
                    Consumer.class))
            // The tests read the exporter: spans are exported at once instead of every 5 s.
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "10ms")
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .overrideConfigKey("quarkus.scheduler.tracing.enabled", "true");

    @Singleton
    static class Consumer {
        final Map<String, String> traceIds = new ConcurrentHashMap<>();
        final Map<String, String> loggedTraceIds = new ConcurrentHashMap<>();
        final Map<String, String> payloads = new ConcurrentHashMap<>();
        final List<String> jobTraceIds = new CopyOnWriteArrayList<>();

        @Delayed(QUEUE)
        void on(DelayedMessage<String> message) {
            payloads.put(message.id(), message.payload());
            traceIds.put(message.id(), Span.current().getSpanContext().getTraceId());
            loggedTraceIds.put(message.id(), String.valueOf(MDC.get("traceId")));
        }

        @Delayed(TICKS)
        void onTick(DelayedMessage<String> message) {
            traceIds.put(message.id(), Span.current().getSpanContext().getTraceId());
        }

        @Scheduled(every = "1s", identity = "traced-job", executeWith = "PACER")
        void job() {
            jobTraceIds.add(Span.current().getSpanContext().getTraceId());
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Tracer tracer;

    @Inject
    InMemorySpans spans;

    @Inject
    Consumer consumer;

    @Inject
    PacerRedis redis;

    @Inject
    RecurringSchedules schedules;

    @BeforeEach
    void reset() {
        spans.reset();
    }

    @Test
    void theDeliveryContinuesTheTraceOfTheRequestThatScheduled() throws IOException {
        Span request = InMemorySpans.inSpan(tracer.spanBuilder("POST /orders").setSpanKind(SpanKind.SERVER), () -> {
            queue.scheduleWithId(QUEUE, "m1", "hello", Duration.ZERO);
        });
        String traceId = request.getSpanContext().getTraceId();

        SpanData send = spans.await(1, named(QUEUE + " send")).get(0);
        SpanData process = spans.await(1, processing(QUEUE, "m1")).get(0);
        assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(send.getTraceId()).isEqualTo(traceId);
        assertThat(send.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
        assertThat(send.getAttributes().asMap()).containsEntry(AttributeKey.stringKey("messaging.system"), "pacer")
                .containsEntry(AttributeKey.stringKey("messaging.destination.name"), QUEUE)
                .containsEntry(AttributeKey.stringKey("messaging.message.id"), "m1")
                .containsEntry(AttributeKey.stringKey("messaging.operation.type"), "send");

        assertThat(process.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(process.getTraceId()).isEqualTo(traceId);
        assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
        assertThat(process.getAttributes().asMap()).containsEntry(AttributeKey.stringKey("messaging.system"), "pacer")
                .containsEntry(AttributeKey.stringKey("messaging.destination.name"), QUEUE)
                .containsEntry(AttributeKey.stringKey("messaging.message.id"), "m1")
                .containsEntry(AttributeKey.stringKey("messaging.operation.type"), "process")
                .containsEntry(AttributeKey.longKey("pacer.delayed.attempt"), 1L)
                .containsEntry(AttributeKey.stringKey("pacer.delayed.outcome"), "success")
                .containsKey(AttributeKey.longKey("pacer.delayed.lateness_ms"));
        assertThat(process.getAttributes().get(AttributeKey.longKey("pacer.delayed.lateness_ms"))).isNotNegative();

        assertThat(consumer.traceIds).containsEntry("m1", traceId);
        assertThat(consumer.loggedTraceIds).containsEntry("m1", traceId);

        // The picture on the Observability page: the whole trace, the Redis client's command spans included.
        String timeline = TraceTimeline.draw(spans.matching(span -> span.getTraceId().equals(traceId)));
        assertThat(timeline).contains("POST /orders (SERVER)", QUEUE + " send (PRODUCER)", QUEUE + " process (CONSUMER)");
        Files.writeString(Path.of("target", "trace-timeline.txt"), timeline);
    }

    @Test
    void deliverNowKeepsTheContextTheMessageWasScheduledWith() {
        Span scheduling = InMemorySpans.inSpan(tracer.spanBuilder("schedule"), () -> {
            queue.scheduleWithId(QUEUE, "m2", "later", Duration.ofHours(1));
        });
        SpanData send = spans.await(1, named(QUEUE + " send")).get(0);
        Span operator = InMemorySpans.inSpan(tracer.spanBuilder("operator"), () -> {
            assertThat(queue.deliverNow(QUEUE, "m2")).isTrue();
        });

        SpanData process = spans.await(1, processing(QUEUE, "m2")).get(0);
        assertThat(process.getTraceId()).isEqualTo(scheduling.getSpanContext().getTraceId())
                .isNotEqualTo(operator.getSpanContext().getTraceId());
        assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
    }

    @Test
    void aScheduleRedisRefusesEndsItsSendSpanWithTheError() {
        String broken = "traced-broken";
        // A string where the queue's due set belongs: Redis refuses the schedule script with WRONGTYPE.
        send(redis, "SET", dueKey(broken), "not a sorted set");
        try {
            assertThatThrownBy(() -> queue.scheduleWithId(broken, "w1", "lost", Duration.ofMinutes(1)))
                    .hasMessageContaining("WRONGTYPE");
            SpanData sent = spans.await(1, named(broken + " send")).get(0);
            assertThat(sent.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(sent.getEvents()).extracting(EventData::getName).containsExactly("exception");
            assertThat(sent.hasEnded()).isTrue();
        } finally {
            send(redis, "DEL", dueKey(broken), messagesKey(broken));
        }
    }

    @Test
    void anUpsertKeepsTheContextTheMessageWasFirstScheduledWith() {
        Span first = InMemorySpans.inSpan(tracer.spanBuilder("first schedule"), () -> {
            queue.scheduleWithId(QUEUE, "u1", "v1", Duration.ofHours(1));
        });
        SpanData firstSend = spans.await(1, named(QUEUE + " send")).get(0);
        Span reschedule = InMemorySpans.inSpan(tracer.spanBuilder("reschedule"), () -> {
            queue.scheduleWithId(QUEUE, "u1", "v2", Instant.now());
        });

        SpanData process = spans.await(1, processing(QUEUE, "u1")).get(0);
        assertThat(process.getTraceId()).isEqualTo(first.getSpanContext().getTraceId());
        assertThat(process.getParentSpanId()).isEqualTo(firstSend.getSpanId());
        assertThat(spans.await(2, named(QUEUE + " send")).get(1).getTraceId())
                .isEqualTo(reschedule.getSpanContext().getTraceId());
        await().atMost(Duration.ofSeconds(5)).until(() -> consumer.traceIds.containsKey("u1"));
        assertThat(consumer.payloads).containsEntry("u1", "v2");
    }

    @Test
    void scheduleAllIsOneSendSpanForItsMessages() {
        Span request = InMemorySpans.inSpan(tracer.spanBuilder("bulk"), () -> {
            queue.scheduleAll(QUEUE, List.of(new ScheduledMessage("b1", "one", Instant.now()),
                    new ScheduledMessage("b2", "two", Instant.now())));
        });
        SpanData send = spans.await(1, named(QUEUE + " send")).get(0);
        assertThat(send.getAttributes().get(AttributeKey.longKey("messaging.batch.message_count"))).isEqualTo(2L);
        for (String id : List.of("b1", "b2")) {
            SpanData process = spans.await(1, processing(QUEUE, id)).get(0);
            assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
            assertThat(process.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> consumer.payloads.containsKey("b2"));
        assertThat(consumer.payloads).containsEntry("b1", "one").containsEntry("b2", "two");
    }

    @Test
    void theContextCostsLessThanATraceparentPerMessage() {
        Instant due = Instant.parse("2099-01-01T00:00:00Z");
        queue.scheduleWithId(QUEUE, "m3", "{\"order\":42}", due);
        String stored = stored(redis, QUEUE, "m3");
        // The layout without a context: t<due>:0:0:<payload>
        String untraced = "t" + due.toEpochMilli() + ":0:0:{\"order\":42}";
        long length = send(redis, "HSTRLEN", messagesKey(QUEUE), "m3").toLong();
        assertThat(length).isEqualTo(stored.length());
        assertThat(length - untraced.length()).isEqualTo(53).isLessThanOrEqualTo(TRACEPARENT_LENGTH);
        // Upper-case encoding, then the context's length, trace id, span id and flags, then the payload
        assertThat(stored).matches("T" + due.toEpochMilli() + ":0:0:50:[0-9a-f]{50}\\{\"order\":42}");
        queue.cancel(QUEUE, "m3");
    }

    @Test
    void aMessageAnotherInstanceScheduledContinuesThatInstancesTrace() {
        // As another instance stores it: its producer span's context in front of the payload.
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String spanId = "00f067aa0ba902b7";
        send(redis, "HSET", messagesKey(QUEUE), "remote", "T0:0:0:50:" + traceId + spanId + "01from elsewhere");
        send(redis, "ZADD", dueKey(QUEUE), 0, "remote");

        SpanData process = spans.await(1, processing(QUEUE, "remote")).get(0);
        assertThat(process.getTraceId()).isEqualTo(traceId);
        assertThat(process.getParentSpanId()).isEqualTo(spanId);
        assertThat(process.getParentSpanContext().isRemote()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> consumer.payloads.containsKey("remote"));
        assertThat(consumer.payloads).containsEntry("remote", "from elsewhere");
        assertThat(consumer.traceIds).containsEntry("remote", traceId);
    }

    @Test
    void aMessageStoredBeforeTracingIsDeliveredInATraceOfItsOwn() {
        // As an earlier version stored it: lower-case encoding, no context.
        send(redis, "HSET", messagesKey(QUEUE), "legacy", "t0:0:0:from before");
        send(redis, "ZADD", dueKey(QUEUE), 0, "legacy");

        SpanData process = spans.await(1, processing(QUEUE, "legacy")).get(0);
        assertThat(process.getParentSpanId()).isEqualTo(SpanId.getInvalid());
        assertThat(process.getAttributes().get(InMemorySpans.OUTCOME)).isEqualTo("success");
        await().atMost(Duration.ofSeconds(5)).until(() -> consumer.traceIds.containsKey("legacy"));
        assertThat(consumer.traceIds.get("legacy")).isEqualTo(process.getTraceId());
    }

    @Test
    void eachRecurringTickIsATraceOfItsOwnStartedByTheFiringInstance() {
        schedules.upsert(RecurringDelivery.every("traced-tick", Duration.ofSeconds(1)).deliver(TICKS, "tick"));
        SpanData process = spans.await(1, span -> span.getName().equals(TICKS + " process")).get(0);
        schedules.delete("traced-tick");
        String id = process.getAttributes().get(AttributeKey.stringKey("messaging.message.id"));
        assertThat(id).startsWith("traced-tick@");
        SpanData send = spans.matching(span -> span.getSpanId().equals(process.getParentSpanId())).get(0);
        assertThat(send.getName()).isEqualTo(TICKS + " send");
        assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(send.getParentSpanId()).as("a root span").isEqualTo(SpanId.getInvalid());
        assertThat(send.getAttributes().get(AttributeKey.stringKey("messaging.message.id"))).isEqualTo(id);
        assertThat(process.getTraceId()).isEqualTo(send.getTraceId());
        await().atMost(Duration.ofSeconds(5)).until(() -> consumer.traceIds.containsKey(id));
        assertThat(consumer.traceIds).containsEntry(id, send.getTraceId());
    }

    @Test
    void eachRunOfAPacerJobIsASpanOfItsOwn() {
        List<SpanData> runs = spans.await(2, named("traced-job"));
        assertThat(runs).allSatisfy(run -> {
            assertThat(run.getKind()).isEqualTo(SpanKind.INTERNAL);
            assertThat(run.getParentSpanId()).as("a root span").isEqualTo(SpanId.getInvalid());
        });
        assertThat(runs.get(0).getTraceId()).isNotEqualTo(runs.get(1).getTraceId());
        await().atMost(Duration.ofSeconds(5)).until(() -> consumer.jobTraceIds.contains(runs.get(1).getTraceId()));
        assertThat(consumer.jobTraceIds).contains(runs.get(0).getTraceId());
    }
}
