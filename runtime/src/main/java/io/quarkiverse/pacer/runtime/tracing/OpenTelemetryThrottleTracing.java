package io.quarkiverse.pacer.runtime.tracing;

import jakarta.inject.Singleton;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.smallrye.mutiny.Uni;

/**
 * Adds an event {@code pacer.throttle} per policy of a decision to the caller's current span: policy, outcome
 * ({@code allowed} or {@code rejected}), limit, remaining, retry-after, whether {@code on-redis-failure} decided
 * ({@code pacer.throttle.fallback}) or the local short-circuit did ({@code pacer.throttle.local}), and the key only
 * when {@code quarkus.pacer.tracing.include-throttle-key=true} (keys can be personal data). A decision has no span
 * of its own, and nothing is built when the current span does not record.
 */
@Singleton
public class OpenTelemetryThrottleTracing implements ThrottleTracing {

    static final String EVENT = "pacer.throttle";
    static final AttributeKey<String> POLICY = AttributeKey.stringKey("pacer.throttle.policy");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("pacer.throttle.outcome");
    static final AttributeKey<Long> LIMIT = AttributeKey.longKey("pacer.throttle.limit");
    static final AttributeKey<Long> REMAINING = AttributeKey.longKey("pacer.throttle.remaining");
    static final AttributeKey<Long> RETRY_AFTER = AttributeKey.longKey("pacer.throttle.retry_after_ms");
    static final AttributeKey<Boolean> FALLBACK = AttributeKey.booleanKey("pacer.throttle.fallback");
    static final AttributeKey<Boolean> LOCAL = AttributeKey.booleanKey("pacer.throttle.local");
    static final AttributeKey<String> KEY = AttributeKey.stringKey("pacer.throttle.key");

    private final boolean includeKey;

    OpenTelemetryThrottleTracing(PacerBuildTimeConfig config) {
        this.includeKey = config.tracing().includeThrottleKey();
    }

    @Override
    public <T extends ThrottleOutcome> Uni<T> deciding(Uni<T> decision) {
        // The caller's span is current at subscription; the outcome arrives on a Redis connection's thread.
        return Uni.createFrom().deferred(() -> {
            Span span = Span.current();
            return span.isRecording() ? decision.invoke(outcome -> mark(span, outcome)) : decision;
        });
    }

    @Override
    public void decided(ThrottleOutcome outcome) {
        Span span = Span.current();
        if (span.isRecording()) {
            mark(span, outcome);
        }
    }

    private void mark(Span span, ThrottleOutcome outcome) {
        for (int i = 0; i < outcome.size(); i++) {
            ThrottleDecision decision = outcome.decision(i);
            AttributesBuilder attributes = Attributes.builder().put(POLICY, decision.policy())
                    .put(OUTCOME, decision.allowed() ? "allowed" : "rejected").put(LIMIT, decision.limit())
                    .put(REMAINING, decision.remaining());
            if (!decision.allowed()) {
                attributes.put(RETRY_AFTER, decision.retryAfter().toMillis());
            }
            if (outcome.fallback()) {
                attributes.put(FALLBACK, true);
            }
            if (outcome.local()) {
                attributes.put(LOCAL, true);
            }
            if (includeKey && decision.key() != null) {
                attributes.put(KEY, decision.key());
            }
            span.addEvent(EVENT, attributes.build());
        }
    }
}
