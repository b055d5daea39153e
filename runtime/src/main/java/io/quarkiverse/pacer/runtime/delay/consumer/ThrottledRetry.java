package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import io.quarkiverse.pacer.throttle.ThrottledException;

/**
 * Recognizes a {@code @Delayed} handler that was rate-limited: its failure is (or wraps) a {@link ThrottledException}.
 * Such a message is rescheduled at the decision's retry-after without consuming an attempt, so a burst of due
 * messages drains at the allowed rate instead of ending in the dead letters.
 */
final class ThrottledRetry {

    private ThrottledRetry() {
    }

    /** The delay before the message can pass, in whole milliseconds rounded up (at least 1), or -1 if not throttled. */
    static long delayMillis(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 8; depth++) {
            if (cause instanceof ThrottledException throttled) {
                long nanos = throttled.retryAfter().toNanos();
                return Math.max(1, (nanos + 999_999) / 1_000_000);
            }
            if (!(cause instanceof CompletionException || cause instanceof ExecutionException)) {
                return -1;
            }
            cause = cause.getCause();
        }
        return -1;
    }
}
