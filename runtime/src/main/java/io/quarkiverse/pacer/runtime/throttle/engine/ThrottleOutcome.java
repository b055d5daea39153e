package io.quarkiverse.pacer.runtime.throttle.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottledException;

/**
 * The result of one script call for a stack of policies: whether the call may proceed, and the per-policy numbers
 * from which {@link ThrottleDecision}s are built only when someone asks (a permitted call usually never does).
 */
public final class ThrottleOutcome {

    private final DecisionStack stack;
    private final String key;
    private final String token;
    private final boolean allowed;
    /** Per policy: allowed, remaining, retry-after µs, reset-after µs. */
    private final long[] values;
    private final boolean fallback;
    /** Rejected by this instance's {@link RejectionCache}, without asking Redis. */
    private final boolean local;
    /** Per policy: the fencing token of a permitted acquire (0 when the algorithm hands out none), or null. */
    private long[] fencingTokens;

    public ThrottleOutcome(DecisionStack stack, String key, String token, boolean allowed, long[] values, boolean fallback) {
        this(stack, key, token, allowed, values, fallback, false);
    }

    public ThrottleOutcome(DecisionStack stack, String key, String token, boolean allowed, long[] values, boolean fallback,
            boolean local) {
        this.local = local;
        this.stack = stack;
        this.key = key;
        this.token = token;
        this.allowed = allowed;
        this.values = values;
        this.fallback = fallback;
    }

    /**
     * The rejection of a key that an enforcing policy blocks outright ({@code ThrottleLimit.blocked()}): the blocked
     * policies reject until the key's limit is asked again, the others report admitting with nothing known left.
     */
    static ThrottleOutcome blocked(DecisionStack stack, String key) {
        long[] values = new long[4 * stack.policies.length];
        for (int i = 0; i < stack.policies.length; i++) {
            boolean blocks = stack.policies[i].blocked;
            values[4 * i] = blocks ? 0 : 1;
            values[4 * i + 2] = blocks ? stack.blockedRetryMicros : 0;
            values[4 * i + 3] = blocks ? stack.blockedRetryMicros : 0;
        }
        return new ThrottleOutcome(stack, key, null, false, values, false, true);
    }

    void fencingTokens(long[] tokens) {
        this.fencingTokens = tokens;
    }

    /** The largest fencing token the decision handed out, 0 when none (not CONCURRENCY, rejected, or fallback). */
    public long fencingToken() {
        long token = 0;
        if (fencingTokens != null) {
            for (long fence : fencingTokens) {
                token = Math.max(token, fence);
            }
        }
        return token;
    }

    /** Whether the call may proceed (every enforcing policy admitted it). */
    public boolean allowed() {
        return allowed;
    }

    /** Whether Redis failed or timed out and {@code on-redis-failure} decided instead. */
    public boolean fallback() {
        return fallback;
    }

    /** Whether this instance rejected the call from a rejection Redis gave earlier (the local short-circuit). */
    public boolean local() {
        return local;
    }

    public String key() {
        return key;
    }

    public String token() {
        return token;
    }

    public DecisionStack stack() {
        return stack;
    }

    public int size() {
        return stack.policies.length;
    }

    public boolean policyAllowed(int index) {
        return values[4 * index] == 1;
    }

    public long retryAfterMicros(int index) {
        return values[4 * index + 2];
    }

    public long remaining(int index) {
        return Math.max(0, values[4 * index + 1]);
    }

    public long resetAfterMicros(int index) {
        return values[4 * index + 3];
    }

    /** The decision of the policy at {@code index} of the stack. */
    public ThrottleDecision decision(int index) {
        ThrottlePolicy policy = stack.policies[index];
        int at = 4 * index;
        return new ThrottleDecision(values[at] == 1, policy.limit, Math.max(0, values[at + 1]),
                micros(values[at + 2]), micros(values[at + 3]), policy.name, key);
    }

    /** The decisions of the enforcing (non-shadow) policies that rejected the call. */
    public List<ThrottleDecision> rejections() {
        List<ThrottleDecision> rejected = new ArrayList<>(1);
        for (int i = 0; i < stack.policies.length; i++) {
            if (values[4 * i] != 1 && !stack.policies[i].shadow) {
                rejected.add(decision(i));
            }
        }
        return rejected;
    }

    /** The longest retry-after among the enforcing policies that rejected the call, in µs. */
    public long retryAfterMicros() {
        long longest = 0;
        for (int i = 0; i < stack.policies.length; i++) {
            if (values[4 * i] != 1 && !stack.policies[i].shadow) {
                longest = Math.max(longest, values[4 * i + 2]);
            }
        }
        return longest;
    }

    public ThrottledException exception() {
        return new ThrottledException(rejections());
    }

    private static Duration micros(long micros) {
        return micros <= 0 ? Duration.ZERO : Duration.ofNanos(Math.multiplyExact(micros, 1000L));
    }
}
