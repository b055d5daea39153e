package io.quarkiverse.pacer.runtime.tracing;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;
import io.smallrye.mutiny.Uni;

/**
 * Where throttling decisions are reported to tracing: no span of their own, an event on the caller's current span.
 * The default does nothing and costs nothing; with OpenTelemetry tracing present the build registers
 * {@link OpenTelemetryThrottleTracing}.
 */
public interface ThrottleTracing {

    ThrottleTracing NONE = new ThrottleTracing() {
        @Override
        public <T extends ThrottleOutcome> Uni<T> deciding(Uni<T> decision) {
            return decision;
        }

        @Override
        public void decided(ThrottleOutcome outcome) {
        }
    };

    /** {@code decision}, marking the span current at subscription with its outcome (non-blocking callers). */
    <T extends ThrottleOutcome> Uni<T> deciding(Uni<T> decision);

    /** Marks the current span with {@code outcome}, on the caller's thread (blocking callers). */
    void decided(ThrottleOutcome outcome);
}
