package io.quarkiverse.pacer.runtime.throttle.policy;

import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * A policy as enforced: the annotation's settings with configuration overrides applied, and the script arguments
 * and key prefix precomputed so a decision allocates as little as possible.
 */
public final class ThrottlePolicy {

    public final String name;
    public final Algorithm algorithm;
    public final int limit;
    public final long windowMicros;
    public final int burst;
    public final boolean shadow;
    public final boolean enabled;
    /** The burst as declared: {@code 0} means the limit, so a runtime limit of its own carries its own burst. */
    public final int declaredBurst;
    /** A key the policy rejects outright (a {@code ThrottleLimitResolver} said {@code blocked()}); never sent to Redis. */
    public final boolean blocked;
    /** The {@code ThrottleLimitResolver} bean class giving keys limits of their own, or {@code null}. */
    public final String limitsResolver;
    /** {@code <prefix>:t:{}: the tag follows (see {@link ThrottleKeyLayout}). */
    final String keyStart;
    /** <code>}&lt;escaped policy name&gt;</code>: follows the tag. */
    final String keyEnd;
    public final String globalKey;
    public final String algorithmArg;
    public final String limitArg;
    public final String windowArg;
    public final String burstArg;
    public final String shadowArg;
    /** Shared by every variant of the policy: metrics count per policy name. */
    public final DecisionCounts counts;

    ThrottlePolicy(String name, Algorithm algorithm, int limit, long windowMicros, int declaredBurst, boolean shadow,
            boolean enabled, String keyPrefix, String groupLeader, String limitsResolver) {
        this(name, algorithm, limit, windowMicros, declaredBurst, shadow, enabled, false, limitsResolver,
                ThrottleKeyLayout.start(keyPrefix), ThrottleKeyLayout.end(name),
                ThrottleKeyLayout.baseKey(keyPrefix, name, ThrottleKeyBuilder.GLOBAL, groupLeader), new DecisionCounts());
    }

    private ThrottlePolicy(String name, Algorithm algorithm, int limit, long windowMicros, int declaredBurst,
            boolean shadow, boolean enabled, boolean blocked, String limitsResolver, String keyStart, String keyEnd,
            String globalKey, DecisionCounts counts) {
        this.name = name;
        this.algorithm = algorithm;
        this.limit = limit;
        this.windowMicros = windowMicros;
        this.declaredBurst = declaredBurst;
        this.burst = ThrottleRules.effectiveBurst(limit, declaredBurst);
        this.shadow = shadow;
        this.enabled = enabled;
        this.blocked = blocked;
        this.limitsResolver = limitsResolver;
        this.keyStart = keyStart;
        this.keyEnd = keyEnd;
        this.globalKey = globalKey;
        this.counts = counts;
        this.algorithmArg = Integer.toString(code(algorithm));
        this.limitArg = Integer.toString(limit);
        this.windowArg = Long.toString(windowMicros);
        this.burstArg = Integer.toString(burst);
        this.shadowArg = shadow ? "1" : "0";
    }

    /**
     * The same policy (name, Redis keys, metrics) with other limits: a runtime override or a key's own limit. This
     * instance itself when nothing differs.
     */
    public ThrottlePolicy withLimits(int limit, long windowMicros, int declaredBurst, boolean shadow) {
        if (limit == this.limit && windowMicros == this.windowMicros
                && ThrottleRules.effectiveBurst(limit, declaredBurst) == burst && shadow == this.shadow) {
            return this;
        }
        return new ThrottlePolicy(name, algorithm, limit, windowMicros, declaredBurst, shadow, enabled, false,
                limitsResolver, keyStart, keyEnd, globalKey, counts);
    }

    /** This policy rejecting every call of a key without asking Redis (its limit reported as 0). */
    public ThrottlePolicy asBlocked() {
        return new ThrottlePolicy(name, algorithm, 0, windowMicros, 0, shadow, enabled, true, limitsResolver, keyStart,
                keyEnd, globalKey, counts);
    }

    /** Whether a decision under {@code other} is one under this policy (same algorithm, limit, window and burst). */
    public boolean sameLimits(ThrottlePolicy other) {
        return this == other || (algorithm == other.algorithm && limit == other.limit
                && windowMicros == other.windowMicros && burst == other.burst && blocked == other.blocked);
    }

    /** The script's code of an algorithm (see throttle-prelude.lua). */
    public static int code(Algorithm algorithm) {
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
    public String redisKeyOfTag(String tag) {
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

    /** The {@code ThrottleLimitResolver} class giving keys limits of their own, or {@code null}. */
    public String limitsResolver() {
        return limitsResolver;
    }

    /** How this policy's acquire decisions came out in this instance. */
    public DecisionCounts counts() {
        return counts;
    }
}
