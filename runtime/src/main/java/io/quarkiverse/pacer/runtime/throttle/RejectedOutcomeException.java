package io.quarkiverse.pacer.runtime.throttle;

import java.util.List;

import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottledException;

/**
 * The {@link ThrottledException} of a rejected outcome, carrying the policies as they decided (a key's own window, a
 * runtime override), so the 429's {@code RateLimit-Policy} header reports them rather than the declared policy.
 */
final class RejectedOutcomeException extends ThrottledException {

    private static final long serialVersionUID = 1L;

    /** The deciding policy of each decision, in the order of {@link #decisions()}. */
    private final transient List<ThrottlePolicy> policies;

    RejectedOutcomeException(List<ThrottleDecision> decisions, List<ThrottlePolicy> policies) {
        super(decisions);
        this.policies = List.copyOf(policies);
    }

    ThrottlePolicy policy(int index) {
        return policies.get(index);
    }
}
