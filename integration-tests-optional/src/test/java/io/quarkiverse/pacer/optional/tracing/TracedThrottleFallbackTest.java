package io.quarkiverse.pacer.optional.tracing;

import static io.quarkiverse.pacer.optional.tracing.InMemorySpans.named;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.data.EventData;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A decision Redis could not make (here: the test's Redis is shut down) is marked {@code pacer.throttle.fallback=true}
 * on the caller's span, and the key stays out of the event by default.
 */
class TracedThrottleFallbackTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class, RedisHash.class, Api.class))
            // The tests read the exporter: spans are exported at once instead of every 5 s.
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "10ms");

    @Singleton
    static class Api {
        @Throttled(name = "ping", limit = 10, window = "1h")
        String ping() {
            return "pong";
        }
    }

    @Inject
    Api api;

    @Inject
    Tracer tracer;

    @Inject
    InMemorySpans spans;

    @Inject
    PacerRedis redis;

    @Inject
    ThrottleEngine engine;

    @Test
    void aFallbackDecisionIsMarked() {
        assertThat(api.ping()).isEqualTo("pong"); // Redis decided: not a fallback
        try {
            RedisHash.send(redis, "SHUTDOWN", "NOSAVE");
        } catch (RuntimeException expected) {
            // the connection closes before Redis answers
        }
        InMemorySpans.inSpan(tracer.spanBuilder("during the outage"), () -> {
            assertThat(api.ping()).isEqualTo("pong"); // on-redis-failure=allow
        });
        assertThat(engine.fallbackDecisions()).isEqualTo(1);

        EventData event = spans.await(1, named("during the outage")).get(0).getEvents().get(0);
        assertThat(event.getName()).isEqualTo("pacer.throttle");
        assertThat(event.getAttributes().get(AttributeKey.booleanKey("pacer.throttle.fallback"))).isTrue();
        assertThat(event.getAttributes().get(AttributeKey.stringKey("pacer.throttle.outcome"))).isEqualTo("allowed");
        assertThat(event.getAttributes().get(AttributeKey.stringKey("pacer.throttle.key"))).isNull();
    }
}
