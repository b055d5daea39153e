package io.quarkiverse.pacer.throttle;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The limit one key gets from a {@link ThrottleLimitResolver}: a limit per window (with an optional window and burst
 * of its own), {@link #unlimited()} or {@link #blocked()}. Immutable; equal values mean the same limit.
 *
 * <pre>{@code
 * ThrottleLimit.of(100)                               // 100 per the policy's window, burst = 100
 * ThrottleLimit.of(10_000, Duration.ofMinutes(1))     // 10,000 a minute
 * ThrottleLimit.of(50, Duration.ofSeconds(1), 200)    // 50 a second, bursts of 200 (bucket algorithms)
 * ThrottleLimit.unlimited()                           // the policy does not apply to this key
 * ThrottleLimit.blocked()                             // every call of this key is rejected, without asking Redis
 * }</pre>
 */
public final class ThrottleLimit {

    private static final ThrottleLimit UNLIMITED = new ThrottleLimit(Kind.UNLIMITED, 0, null, 0);
    private static final ThrottleLimit BLOCKED = new ThrottleLimit(Kind.BLOCKED, 0, null, 0);

    private enum Kind {
        LIMITED,
        UNLIMITED,
        BLOCKED
    }

    private final Kind kind;
    private final int limit;
    private final Duration window;
    private final int burst;

    private ThrottleLimit(Kind kind, int limit, Duration window, int burst) {
        this.kind = kind;
        this.limit = limit;
        this.window = window;
        this.burst = burst;
    }

    /**
     * {@code limit} permits per the policy's window; the burst is the limit.
     *
     * @throws IllegalArgumentException when {@code limit} is not positive
     * @param limit permits per window, positive
     * @return the limit
     */
    public static ThrottleLimit of(int limit) {
        return of(limit, null, 0);
    }

    /**
     * {@code limit} permits per {@code window}; the burst is the limit.
     *
     * @param window at least one millisecond, in whole milliseconds; {@code null} means the policy's window
     * @throws IllegalArgumentException when {@code limit} is not positive or the window is invalid
     * @param limit permits per window, positive
     * @return the limit
     */
    public static ThrottleLimit of(int limit, Duration window) {
        return of(limit, window, 0);
    }

    /**
     * {@code limit} permits per {@code window}, with a capacity of {@code burst} for {@link Algorithm#TOKEN_BUCKET} and
     * {@link Algorithm#LEAKY_BUCKET} (ignored by the other algorithms).
     *
     * @param window at least one millisecond, in whole milliseconds; {@code null} means the policy's window
     * @param burst positive, or {@code 0} for the limit
     * @throws IllegalArgumentException when a value is out of range
     * @param limit permits per window, positive
     * @return the limit
     */
    public static ThrottleLimit of(int limit, Duration window, int burst) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
        if (burst < 0) {
            throw new IllegalArgumentException("burst must be positive (or 0 for the limit), was " + burst);
        }
        if (window != null && (window.toMillis() < 1 || window.toNanos() % 1_000_000 != 0)) {
            throw new IllegalArgumentException("window must be at least 1 ms, in whole milliseconds, was " + window);
        }
        return new ThrottleLimit(Kind.LIMITED, limit, window, burst);
    }

    /**
     * The policy does not apply to the key: its calls are neither counted nor rejected by it.
     *
     * @return the unlimited answer
     */
    public static ThrottleLimit unlimited() {
        return UNLIMITED;
    }

    /**
     * Every call of the key is rejected by the policy, without asking Redis.
     *
     * @return the blocking answer
     */
    public static ThrottleLimit blocked() {
        return BLOCKED;
    }

    /**
     * Whether the policy does not apply to the key.
     *
     * @return whether this is {@link #unlimited()}
     */
    public boolean isUnlimited() {
        return kind == Kind.UNLIMITED;
    }

    /**
     * Whether every call of the key is rejected.
     *
     * @return whether this is {@link #blocked()}
     */
    public boolean isBlocked() {
        return kind == Kind.BLOCKED;
    }

    /**
     * Permits per window; {@code 0} for {@link #unlimited()} and {@link #blocked()}.
     *
     * @return the permits per window
     */
    public int limit() {
        return limit;
    }

    /**
     * The window of its own, or empty for the policy's window.
     *
     * @return the window, or empty
     */
    public Optional<Duration> window() {
        return Optional.ofNullable(window);
    }

    /**
     * The burst; {@code 0} means the limit.
     *
     * @return the burst
     */
    public int burst() {
        return burst;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ThrottleLimit that && kind == that.kind && limit == that.limit && burst == that.burst
                && Objects.equals(window, that.window);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, limit, window, burst);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case UNLIMITED -> "unlimited";
            case BLOCKED -> "blocked";
            case LIMITED -> limit + (window == null ? "" : " per " + window) + (burst == 0 ? "" : ", burst " + burst);
        };
    }
}
