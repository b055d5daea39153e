package io.quarkiverse.pacer.throttle;

// @formatter:off
/**
 * What a {@link Throttled} method does when a policy rejects the call.
 * <p>
 * Example: wait up to two seconds for a permit instead of failing at once:
 *
 * <pre>{@code
 * @Throttled(limit = 5, window = "1s", onLimit = OnLimit.WAIT, maxWait = "2s")
 * public Quote fetchQuote(String symbol) {
 *     return quotes.fetch(symbol);
 * }
 * }</pre>
 */
// @formatter:on
public enum OnLimit {

    /** Throw {@link ThrottledException} at once (for asynchronous methods: fail the returned {@code Uni}/stage). */
    REJECT,

    /**
     * When the decision's {@link ThrottleDecision#retryAfter() retry-after} is within {@link Throttled#maxWait()},
     * wait that long (a timer, never a busy loop and never on an event-loop thread) and try once more; otherwise, or
     * if the second attempt is rejected too, behave like {@link #REJECT}.
     */
    WAIT
}
