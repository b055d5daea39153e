package io.quarkiverse.pacer.runtime.delay.consumer;

/** What {@code delayed-nack.lua} and {@code delayed-throttled.lua} report having done with a returned message. */
enum NackOutcome {
    /** The message was gone, or held under another claim token (its lease had expired): nothing changed. */
    UNCHANGED(0),
    /** Due again after its backoff. */
    RETRIED(1),
    /** Moved to the dead letters. */
    DEAD_LETTERED(2),
    /** Due again at once (released at shutdown). */
    RELEASED(3),
    /** Due again at the rate limiter's retry-after, with no attempt counted. */
    THROTTLED(4);

    /** The first element of the script's reply. */
    private final int code;

    NackOutcome(int code) {
        this.code = code;
    }

    static NackOutcome of(int code) {
        for (NackOutcome outcome : values()) {
            if (outcome.code == code) {
                return outcome;
            }
        }
        return UNCHANGED;
    }
}
