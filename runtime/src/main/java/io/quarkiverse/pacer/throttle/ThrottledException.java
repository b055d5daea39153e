package io.quarkiverse.pacer.throttle;

import java.time.Duration;
import java.util.List;

/**
 * Thrown (or, for {@code Uni}/{@code CompletionStage} methods, delivered through the returned type) when a
 * {@link Throttled} call is rejected. It carries the decisions of the policies that rejected the call.
 * <p>
 * With Quarkus REST present it is mapped to {@code 429 Too Many Requests} with {@code Retry-After},
 * {@code RateLimit-Policy} and {@code RateLimit} headers. Elsewhere, handle it yourself:
 *
 * <pre>{@code
 * try {
 *     api.ping();
 * } catch (ThrottledException e) {
 *     scheduleRetry(e.retryAfter());
 * }
 * }</pre>
 *
 * The exception carries no stack trace: rejections are an expected, frequent outcome and must stay cheap.
 */
public class ThrottledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<ThrottleDecision> decisions;

    /**
     * Creates the exception.
     *
     * @param decisions the rejecting decisions, at least one
     */
    public ThrottledException(List<ThrottleDecision> decisions) {
        super(message(decisions), null, false, false);
        if (decisions.isEmpty()) {
            throw new IllegalArgumentException("A ThrottledException needs at least one rejecting decision");
        }
        this.decisions = List.copyOf(decisions);
    }

    /**
     * The decisions of the policies that rejected the call (several when stacked policies all rejected).
     *
     * @return the rejecting decisions, at least one
     */
    public List<ThrottleDecision> decisions() {
        return decisions;
    }

    /**
     * The most restrictive rejecting decision: the one with the longest {@link ThrottleDecision#retryAfter()}.
     *
     * @return the decision with the longest retry-after
     */
    public ThrottleDecision decision() {
        ThrottleDecision worst = decisions.get(0);
        for (int i = 1; i < decisions.size(); i++) {
            if (decisions.get(i).retryAfter().compareTo(worst.retryAfter()) > 0) {
                worst = decisions.get(i);
            }
        }
        return worst;
    }

    /**
     * How long to wait before a retry can succeed: the longest retry-after of the rejecting policies.
     *
     * @return the longest retry-after
     */
    public Duration retryAfter() {
        return decision().retryAfter();
    }

    private static String message(List<ThrottleDecision> decisions) {
        StringBuilder message = new StringBuilder("Rate limit exceeded");
        for (ThrottleDecision decision : decisions) {
            message.append(decision == decisions.get(0) ? ": " : ", ")
                    .append('"').append(decision.policy()).append('"')
                    .append(" (limit ").append(decision.limit())
                    .append(", retry after ").append(decision.retryAfter().toMillis()).append(" ms)");
        }
        return message.toString();
    }
}
