package io.quarkiverse.pacer.runtime.throttle;

import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * A policy as enforced: the annotation's settings with configuration overrides applied, and the script arguments
 * and key prefix precomputed so a decision allocates as little as possible.
 */
public final class ThrottlePolicy {

    final String name;
    final Algorithm algorithm;
    final int limit;
    final long windowMicros;
    final int burst;
    final boolean shadow;
    final boolean enabled;
    /** {@code <prefix>:t:{}: the tag follows (see {@link ThrottleKeyLayout}). */
    final String keyStart;
    /** <code>}&lt;escaped policy name&gt;</code>: follows the tag. */
    final String keyEnd;
    final String globalKey;
    final String algorithmArg;
    final String limitArg;
    final String windowArg;
    final String burstArg;
    final String shadowArg;
    final DecisionCounts counts = new DecisionCounts();

    ThrottlePolicy(String name, Algorithm algorithm, int limit, long windowMicros, int burst, boolean shadow,
            boolean enabled, String keyPrefix, String groupLeader) {
        this.name = name;
        this.algorithm = algorithm;
        this.limit = limit;
        this.windowMicros = windowMicros;
        this.burst = burst;
        this.shadow = shadow;
        this.enabled = enabled;
        this.keyStart = ThrottleKeyLayout.start(keyPrefix);
        this.keyEnd = ThrottleKeyLayout.end(name);
        this.globalKey = ThrottleKeyLayout.baseKey(keyPrefix, name, ThrottleKeyBuilder.GLOBAL, groupLeader);
        this.algorithmArg = Integer.toString(code(algorithm));
        this.limitArg = Integer.toString(limit);
        this.windowArg = Long.toString(windowMicros);
        this.burstArg = Integer.toString(burst);
        this.shadowArg = shadow ? "1" : "0";
    }

    /** The script's code of an algorithm (see throttle-prelude.lua). */
    static int code(Algorithm algorithm) {
        return switch (algorithm) {
            case FIXED_WINDOW -> 1;
            case SLIDING_WINDOW -> 2;
            case SLIDING_LOG -> 3;
            case TOKEN_BUCKET -> 4;
            case LEAKY_BUCKET -> 5;
            case CONCURRENCY -> 6;
        };
    }

    /** The most permits one call can ever take. */
    public int capacity() {
        return ThrottleRules.capacity(algorithm, limit, burst);
    }

    /** The base Redis key of this policy for an encoded key ({@code ""} for the global key). */
    public String redisKey(String encodedKey) {
        return encodedKey.isEmpty() ? globalKey : redisKeyOfTag(ThrottleKeyLayout.tag(encodedKey));
    }

    /** The base Redis key of this policy for an escaped tag (see {@link ThrottleKeyLayout#tag(String)}). */
    String redisKeyOfTag(String tag) {
        return keyStart + tag + keyEnd;
    }

    public String name() {
        return name;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    public int limit() {
        return limit;
    }

    public long windowMicros() {
        return windowMicros;
    }

    public int burst() {
        return burst;
    }

    public boolean shadow() {
        return shadow;
    }

    public boolean enabled() {
        return enabled;
    }

    /** How this policy's acquire decisions came out in this instance. */
    public DecisionCounts counts() {
        return counts;
    }
}
