package io.quarkiverse.pacer.benchmarks.throttle;

import java.time.Duration;

/**
 * The two limit settings every implementation is measured with, so Pacer and its peers enforce the same policy.
 */
public enum ThrottleLimits {

    /** So high that every call is admitted: the rate limiter is exercised, never the rejection path. */
    ADMITTED("admitted", 1_000_000_000L, Duration.ofSeconds(1)),

    /** One call per hour per key: after the first call on a key, every call is rejected. */
    REJECTED("rejected", 1L, Duration.ofHours(1));

    private final String label;
    private final long limit;
    private final Duration window;

    ThrottleLimits(String label, long limit, Duration window) {
        this.label = label;
        this.limit = limit;
        this.window = window;
    }

    public String label() {
        return label;
    }

    public long limit() {
        return limit;
    }

    public Duration window() {
        return window;
    }
}
