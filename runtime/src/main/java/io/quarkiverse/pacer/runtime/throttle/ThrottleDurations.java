package io.quarkiverse.pacer.runtime.throttle;

import java.time.Duration;
import java.time.format.DateTimeParseException;

import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * Parses the durations of {@code @Throttled} ({@code window}, {@code maxWait}) and of their configuration overrides,
 * at build time and at startup alike, so both accept exactly the same values.
 */
public final class ThrottleDurations {

    /**
     * Bound on the products of permits and microseconds some scripts form: Lua computes with doubles, exact for
     * integers below 2^53, and sums of two such products must stay exact.
     */
    public static final double MAX_EXACT = 0x1p52;

    private ThrottleDurations() {
    }

    /**
     * Parses {@code "500ms"}, {@code "1s"}, {@code "5m"}, {@code "1h"}, {@code "1d"} or an ISO-8601 duration.
     *
     * @throws IllegalArgumentException with a readable reason when the text is not such a duration
     */
    public static Duration parse(String text) {
        String value = text == null ? "" : text.trim();
        if (value.isEmpty()) {
            throw new IllegalArgumentException("an empty duration");
        }
        if (value.charAt(0) == 'P' || value.charAt(0) == 'p' || value.charAt(0) == '-' && value.length() > 1
                && (value.charAt(1) == 'P' || value.charAt(1) == 'p')) {
            try {
                return Duration.parse(value);
            } catch (DateTimeParseException e) {
                throw invalid(text);
            }
        }
        int unitStart = 0;
        while (unitStart < value.length() && Character.isDigit(value.charAt(unitStart))) {
            unitStart++;
        }
        if (unitStart == 0 || unitStart > 15) {
            throw invalid(text);
        }
        long amount = Long.parseLong(value.substring(0, unitStart));
        switch (value.substring(unitStart)) {
            case "ms":
                return Duration.ofMillis(amount);
            case "s":
                return Duration.ofSeconds(amount);
            case "m":
                return Duration.ofMinutes(amount);
            case "h":
                return Duration.ofHours(amount);
            case "d":
                return Duration.ofDays(amount);
            default:
                throw invalid(text);
        }
    }

    /**
     * Parses a window: positive, whole milliseconds, and small enough for exact arithmetic.
     *
     * @return the window in microseconds
     * @throws IllegalArgumentException with a readable reason
     */
    public static long parseWindowMicros(String text) {
        Duration window = parse(text);
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

    /**
     * The one home of the exactness rule: only the algorithms whose scripts multiply permits by microseconds are
     * bounded. {@code SLIDING_WINDOW} forms {@code limit * window}, {@code TOKEN_BUCKET} {@code burst * window} and
     * {@code LEAKY_BUCKET} {@code burst * (window / limit)}; {@code FIXED_WINDOW}, {@code SLIDING_LOG} and
     * {@code CONCURRENCY} only add a window to the Redis time, which stays exact for every allowed window.
     *
     * @param burst the effective burst (the limit when none is set)
     * @return why the policy cannot be computed exactly, or {@code null} when it can
     */
    public static String exactnessProblem(Algorithm algorithm, int limit, int burst, long windowMicros, String window) {
        if (limit <= 0 || burst <= 0 || windowMicros <= 0) {
            return null;
        }
        String factor;
        double product;
        switch (algorithm) {
            case SLIDING_WINDOW -> {
                factor = "limit " + limit;
                product = (double) limit * windowMicros;
            }
            case TOKEN_BUCKET -> {
                factor = "burst " + burst;
                product = (double) burst * windowMicros;
            }
            case LEAKY_BUCKET -> {
                factor = "burst " + burst;
                product = (double) burst * Math.ceil((double) windowMicros / limit);
            }
            default -> {
                return null;
            }
        }
        if (product < MAX_EXACT) {
            return null;
        }
        return factor + " times window " + window + " is too large for exact arithmetic with " + algorithm
                + " (at most 2^52 permit-microseconds); use a smaller limit, burst or window, or FIXED_WINDOW,"
                + " SLIDING_LOG or CONCURRENCY, which have no such bound";
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

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("\"" + text
                + "\" is not a duration (use e.g. 500ms, 1s, 5m, 1h, 1d or ISO-8601 such as PT30S)");
    }
}
