package io.quarkiverse.pacer.runtime.tracing;

/** The CONSUMER span of one delivery attempt; ended once, on any thread. */
public interface DeliveryTrace {

    DeliveryTrace NONE = (outcome, delayMillis, failure) -> {
    };

    /**
     * Ends the attempt.
     *
     * @param delayMillis when the message is due again ({@link DeliveryOutcome#RETRY},
     *        {@link DeliveryOutcome#THROTTLED}), in millis from now; otherwise negative
     * @param failure what the handler threw, or {@code null}
     */
    void end(DeliveryOutcome outcome, long delayMillis, Throwable failure);
}
