package io.quarkiverse.pacer.runtime.throttle.policy;

import java.time.Duration;

import io.quarkus.runtime.configuration.DurationConverter;

/**
 * Parses the durations of {@code @Throttled} ({@code window}, {@code maxWait}) and of their configuration overrides,
 * at build time and at startup alike, with Quarkus's own {@link DurationConverter}, so they accept what every Quarkus
 * duration setting accepts ({@code 500ms}, {@code 1s}, {@code 5m}, {@code 1h}, {@code 1d}, ISO-8601). What is added
 * here is only what a window or a wait must be, and messages that quote the text.
 */
public final class ThrottleDurations {

    private ThrottleDurations() {
    }

    /**
     * Parses a duration the way Quarkus configuration does.
     *
     * @throws IllegalArgumentException with a readable reason when the text is not such a duration
     */
    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            // DurationConverter answers null for an empty text; a window or wait must be given.
            throw new IllegalArgumentException("an empty duration");
        }
        try {
            return DurationConverter.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + text
                    + "\" is not a duration (use e.g. 500ms, 1s, 5m, 1h, 1d or ISO-8601 such as PT30S)");
        }
    }

    /**
     * Parses a window: positive, whole milliseconds, and small enough for exact arithmetic.
     *
     * @return the window in microseconds
     * @throws IllegalArgumentException with a readable reason
     */
    public static long parseWindowMicros(String text) {
        return windowMicros(parse(text), text);
    }

    /**
     * Checks a window already converted (a configuration value): positive, whole milliseconds, and small enough for
     * exact arithmetic.
     *
     * @param text how the window reads in messages
     * @return the window in microseconds
     * @throws IllegalArgumentException with a readable reason
     */
    public static long windowMicros(Duration window, String text) {
        if (window.isNegative() || window.toMillis() < 1) {
            throw new IllegalArgumentException("\"" + text + "\" is shorter than the minimum window of 1ms");
        }
        if (window.toNanos() % 1_000_000 != 0) {
            throw new IllegalArgumentException("\"" + text + "\" is not a whole number of milliseconds");
        }
        if (window.toDays() > 3650) {
            throw new IllegalArgumentException("\"" + text + "\" is longer than the maximum window of 3650d");
        }
        return window.toMillis() * 1000;
    }

    /** A duration as a window reads in messages: {@code 1500ms}, or the ISO-8601 text when not whole milliseconds. */
    public static String text(Duration duration) {
        return duration.toNanos() % 1_000_000 == 0 ? duration.toMillis() + "ms" : duration.toString();
    }

    /**
     * Parses a maximum wait: zero or positive.
     *
     * @throws IllegalArgumentException with a readable reason
     */
    public static Duration parseMaxWait(String text) {
        Duration wait = parse(text);
        if (wait.isNegative()) {
            throw new IllegalArgumentException("\"" + text + "\" is negative");
        }
        return wait;
    }
}
