package io.quarkiverse.pacer.runtime.throttle.policy;

import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig;
import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * The rules a policy's settings obey, in one place for the build (validating {@code @Throttled}), startup (applying
 * configuration overrides) and the Dev UI, so all three always agree.
 */
public final class ThrottleRules {

    /**
     * Bound on the products of permits and microseconds some scripts form: Lua computes with doubles, exact for
     * integers below 2^53, and sums of two such products must stay exact.
     */
    public static final double MAX_EXACT = 0x1p52;

    private ThrottleRules() {
    }

    /** The burst in force: {@code 0} (the annotation's default) means the limit. */
    public static int effectiveBurst(int limit, int burst) {
        return burst == 0 ? limit : burst;
    }

    /** Whether the burst (rather than the limit) is the capacity a single call's cost must fit in. */
    public static boolean usesBurst(Algorithm algorithm) {
        return algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.LEAKY_BUCKET;
    }

    /** The most permits one call can ever take: the effective burst of the buckets, else the limit. */
    public static int capacity(Algorithm algorithm, int limit, int effectiveBurst) {
        return usesBurst(algorithm) ? effectiveBurst : limit;
    }

    /**
     * The exactness rule: only the algorithms whose scripts multiply permits by microseconds are bounded.
     * {@code SLIDING_WINDOW} forms {@code limit * window}, {@code TOKEN_BUCKET} {@code burst * window} and
     * {@code LEAKY_BUCKET} {@code burst * (window / limit)}; {@code FIXED_WINDOW}, {@code SLIDING_LOG} and
     * {@code CONCURRENCY} only add a window to the Redis time, which stays exact for every allowed window.
     *
     * @param burst the effective burst (see {@link #effectiveBurst})
     * @param window the window as written, for the message
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

    /** The problem with a reserved policy {@code name}, for messages; {@code null} when the name is free. */
    public static String reservedNameProblem(String name) {
        return name.equals(ThrottleRuntimeConfig.LOCAL_REJECTIONS) || name.equals(ThrottleRuntimeConfig.LIMITS)
                ? "the policy name \"" + name + "\" is reserved: quarkus.pacer.throttle." + name + ".* configures Pacer"
                        + " itself, so the policy's settings could not be told apart; rename the policy"
                : null;
    }
}
