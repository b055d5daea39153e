package io.quarkiverse.pacer.runtime.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigDocSection;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

/**
 * Rate limiting ({@code @Throttled}) at runtime.
 */
public interface ThrottleRuntimeConfig {

    /**
     * What a decision is when Redis fails or does not answer within {@code timeout}: {@code allow} lets the call
     * through (availability first), {@code reject} rejects it with a {@code ThrottledException} (protection first).
     */
    @WithDefault("allow")
    OnRedisFailure onRedisFailure();

    /**
     * The time budget of one decision (the round trip to Redis). A slower or unreachable Redis never stalls a caller
     * longer than this: the decision then follows {@code on-redis-failure}.
     */
    @WithDefault("250ms")
    Duration timeout();

    /**
     * Whether successful responses of throttled REST endpoints (Quarkus REST) carry the {@code RateLimit-Policy} and
     * {@code RateLimit} headers of the IETF draft, as rejections ({@code 429}) always do, so clients can pace themselves
     * before they are rejected.
     */
    @WithDefault("true")
    boolean headersOnSuccess();

    /**
     * Per-policy overrides of the {@code @Throttled} settings, keyed by policy name. A policy used only through the
     * programmatic {@code Throttler} API is declared here with at least {@code limit} and {@code window}.
     */
    @ConfigDocMapKey("policy")
    @ConfigDocSection
    @WithParentName
    Map<String, PolicyConfig> policies();

    /**
     * What to do when Redis fails or is too slow.
     */
    enum OnRedisFailure {
        /** Let the call through. */
        ALLOW,
        /** Reject the call. */
        REJECT
    }

    /**
     * Overrides of one policy.
     */
    interface PolicyConfig {

        /**
         * Permits per window (for {@code CONCURRENCY}: calls in flight); positive.
         */
        Optional<Integer> limit();

        /**
         * The window, e.g. {@code 500ms}, {@code 1s}, {@code 5m}, {@code 1h}, {@code 1d} or ISO-8601 ({@code PT30S}).
         */
        Optional<String> window();

        /**
         * Bucket capacity for {@code TOKEN_BUCKET} and {@code LEAKY_BUCKET}; positive.
         */
        Optional<Integer> burst();

        /**
         * The algorithm, e.g. {@code sliding-window} or {@code SLIDING_WINDOW}.
         */
        Optional<Algorithm> algorithm();

        /**
         * Set to {@code false} to switch the policy off: calls are no longer checked against it.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * Shadow mode: evaluate and record, never reject.
         */
        Optional<Boolean> shadow();
    }
}
