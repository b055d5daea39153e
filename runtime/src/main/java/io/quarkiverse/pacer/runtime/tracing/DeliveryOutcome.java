package io.quarkiverse.pacer.runtime.tracing;

/** How a delivery attempt ended: the value of the span attribute {@code pacer.delayed.outcome}. */
public enum DeliveryOutcome {
    /** The handler succeeded; the message is acknowledged. */
    SUCCESS("success"),
    /** The handler failed; the message is due again after its backoff. */
    RETRY("retry"),
    /** The handler failed its last attempt, or the payload cannot be decoded: the message is a dead letter. */
    DEAD_LETTER("dead_letter"),
    /** The handler was rate-limited ({@code @Throttled}): due again at the retry-after, no attempt counted. */
    THROTTLED("throttled"),
    /** Shutdown began before the handler started: the message is given back, due at once. */
    RELEASED("released"),
    /** The claim was lost meanwhile (its lease expired and another consumer holds the message). */
    LOST("lost");

    /** The attribute value. */
    public final String value;

    DeliveryOutcome(String value) {
        this.value = value;
    }
}
