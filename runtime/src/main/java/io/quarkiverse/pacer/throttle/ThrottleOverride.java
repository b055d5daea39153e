package io.quarkiverse.pacer.throttle;

import java.time.Duration;

/**
 * A runtime override of a policy's settings, set on every instance at once with {@link Throttler#override} (or
 * {@link ReactiveThrottler#override}) and kept in Redis until cleared, restarts included. Each setting is optional
 * ({@code null}: not overridden); an overridden setting beats every other source (a {@link ThrottleLimitResolver},
 * the configuration, the annotation), the others keep theirs.
 *
 * <pre>{@code
 * // During an incident: 10 a second for every key of "search", now, on every instance.
 * throttler.override("search", ThrottleOverride.of().withLimit(10).withWindow(Duration.ofSeconds(1)));
 * // Try a limit on production traffic without rejecting anyone.
 * throttler.override("exports", ThrottleOverride.of().withShadow(true));
 * // Back to normal.
 * throttler.clearOverride("search");
 * }</pre>
 *
 * @param limit permits per window, positive, or {@code null}
 * @param window the window (at least 1 ms, whole milliseconds), or {@code null}
 * @param burst the burst of the bucket algorithms, positive, or {@code null}
 * @param enabled {@code false} switches the policy off, {@code true} on (even if the configuration switched it off),
 *        or {@code null}
 * @param shadow whether the policy only records and never rejects, or {@code null}
 */
public record ThrottleOverride(Integer limit, Duration window, Integer burst, Boolean enabled, Boolean shadow) {

    private static final ThrottleOverride NONE = new ThrottleOverride(null, null, null, null, null);

    /**
     * Checks the values given; {@code null} leaves a setting as the annotation or configuration has it.
     *
     * @throws IllegalArgumentException when a value is out of range
     * @param limit permits per window, or {@code null}
     * @param window the window, or {@code null}
     * @param burst the bucket capacity, or {@code null}
     * @param enabled whether the policy applies, or {@code null}
     * @param shadow whether the policy only records, or {@code null}
     */
    public ThrottleOverride {
        if (limit != null && limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
        if (burst != null && burst <= 0) {
            throw new IllegalArgumentException("burst must be positive, was " + burst);
        }
        if (window != null && (window.toMillis() < 1 || window.toNanos() % 1_000_000 != 0)) {
            throw new IllegalArgumentException("window must be at least 1 ms, in whole milliseconds, was " + window);
        }
    }

    /**
     * An override of nothing, to start from: {@code ThrottleOverride.of().withLimit(10)}.
     *
     * @return the empty override
     */
    public static ThrottleOverride of() {
        return NONE;
    }

    /**
     * This override with {@code limit} set as well.
     *
     * @param limit the limit, positive
     * @return a copy with this setting
     */
    public ThrottleOverride withLimit(int limit) {
        return new ThrottleOverride(limit, window, burst, enabled, shadow);
    }

    /**
     * This override with {@code window} set as well.
     *
     * @param window the window, whole milliseconds
     * @return a copy with this setting
     */
    public ThrottleOverride withWindow(Duration window) {
        return new ThrottleOverride(limit, window, burst, enabled, shadow);
    }

    /**
     * This override with {@code burst} set as well.
     *
     * @param burst the bucket capacity, positive
     * @return a copy with this setting
     */
    public ThrottleOverride withBurst(int burst) {
        return new ThrottleOverride(limit, window, burst, enabled, shadow);
    }

    /**
     * This override with {@code enabled} set as well.
     *
     * @param enabled whether the policy applies
     * @return a copy with this setting
     */
    public ThrottleOverride withEnabled(boolean enabled) {
        return new ThrottleOverride(limit, window, burst, enabled, shadow);
    }

    /**
     * This override with {@code shadow} set as well.
     *
     * @param shadow whether the policy only records
     * @return a copy with this setting
     */
    public ThrottleOverride withShadow(boolean shadow) {
        return new ThrottleOverride(limit, window, burst, enabled, shadow);
    }

    /**
     * Whether it overrides nothing.
     *
     * @return whether no setting is overridden
     */
    public boolean isEmpty() {
        return equals(NONE);
    }
}
