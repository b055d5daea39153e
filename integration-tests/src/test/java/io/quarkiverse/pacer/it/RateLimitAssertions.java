package io.quarkiverse.pacer.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a policy's entry of a {@code RateLimit} header, {@code "<policy>";r=<remaining>;t=<seconds>}, and a
 * {@code Retry-After} value. A window runs on while a busy machine answers slowly, so a number of seconds may be lower
 * than on an idle one by the whole seconds elapsed since the test's first call: the check allows exactly that, which
 * keeps it exact on an idle machine and true on a loaded one.
 */
final class RateLimitAssertions {

    private final long startedNanos = System.nanoTime();

    /** Starts counting the elapsed time now: call it right before the first call of the scenario. */
    static RateLimitAssertions startingNow() {
        return new RateLimitAssertions();
    }

    /** Asserts that {@code header} has the entry of {@code policy} with these values. */
    void assertEntry(String header, String policy, long remaining, long seconds) {
        Matcher entry = Pattern.compile("\"" + Pattern.quote(policy) + "\";r=(\\d+);t=(\\d+)").matcher(header);
        assertThat(entry.find()).as("an entry for %s in %s", policy, header).isTrue();
        assertThat(Long.parseLong(entry.group(1))).as("remaining of %s in %s", policy, header).isEqualTo(remaining);
        assertSeconds(Long.parseLong(entry.group(2)), seconds, "t of " + policy + " in " + header);
    }

    /** Asserts a number of seconds that counts down as time passes, such as {@code Retry-After}. */
    void assertSeconds(long actual, long expected, String what) {
        long elapsed = (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos) + 999) / 1000;
        assertThat(actual).as(what).isBetween(expected - elapsed, expected);
    }
}
