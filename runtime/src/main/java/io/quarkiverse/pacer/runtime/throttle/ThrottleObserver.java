package io.quarkiverse.pacer.runtime.throttle;

/**
 * Notified of every decision (metrics). Implementations must be cheap and never block.
 */
interface ThrottleObserver {

    ThrottleObserver NONE = (outcome, nanos) -> {
    };

    void decided(ThrottleOutcome outcome, long nanos);
}
