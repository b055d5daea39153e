package io.quarkiverse.pacer.runtime.throttle.engine;

/**
 * Notified of every decision (metrics). Implementations must be cheap and never block.
 */
public interface ThrottleObserver {

    ThrottleObserver NONE = (outcome, nanos) -> {
    };

    void decided(ThrottleOutcome outcome, long nanos);
}
