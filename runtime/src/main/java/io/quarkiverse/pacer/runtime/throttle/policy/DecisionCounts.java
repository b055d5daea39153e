package io.quarkiverse.pacer.runtime.throttle.policy;

import java.util.concurrent.atomic.LongAdder;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;

/**
 * How the acquire decisions of one policy came out in this instance since startup, for the Dev UI: always on, since
 * a few uncontended adds per decision cost next to nothing beside the round trip to Redis.
 */
public final class DecisionCounts {

    private final LongAdder permitted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder rejectedByOther = new LongAdder();
    private final LongAdder fallback = new LongAdder();

    public void record(ThrottleOutcome outcome, int index) {
        if (outcome.fallback()) {
            fallback.increment();
        } else if (!outcome.policyAllowed(index)) {
            rejected.increment();
        } else if (outcome.allowed()) {
            permitted.increment();
        } else {
            rejectedByOther.increment();
        }
    }

    /** Calls this policy and every other policy of the stack admitted. */
    public long permitted() {
        return permitted.sum();
    }

    /** Calls this policy rejected (for a shadow policy: would have rejected). */
    public long rejected() {
        return rejected.sum();
    }

    /** Calls this policy admitted but another policy of the same stack rejected: no permit was taken. */
    public long rejectedByOther() {
        return rejectedByOther.sum();
    }

    /** Decisions Redis could not make in time, decided by {@code on-redis-failure}. */
    public long fallback() {
        return fallback.sum();
    }
}
