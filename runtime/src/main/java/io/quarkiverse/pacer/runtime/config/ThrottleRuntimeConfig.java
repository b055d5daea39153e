package io.quarkiverse.pacer.runtime.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigDocSection;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

/**
 * Rate limiting ({@code @Throttled}) at runtime.
 */
public interface ThrottleRuntimeConfig {

    /** The name of the {@link #localRejections()} group, which the policy map below also sees; not a policy name. */
    String LOCAL_REJECTIONS = "local-rejections";

    /** The name of the {@link #limits()} group, which the policy map below also sees; not a policy name. */
    String LIMITS = "limits";

    /**
     * Whether {@code @Throttled} is enforced. With {@code false} every annotated method runs as if it had no
     * {@code @Throttled}: no decision, no Redis call, no rejection (for example in a test profile, or to switch rate
     * limiting off in an emergency). The programmatic {@code Throttler} and {@code ReactiveThrottler} keep working.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * What a decision is when Redis is unreachable, does not answer within {@code timeout}, or answers with an error:
     * {@code allow} lets the call through (availability first), {@code reject} rejects it with a
     * {@code ThrottledException} (protection first), {@code local} decides it in memory on this instance with the
     * same algorithm and {@code limit / expected-instances} (protection without Redis, approximate across instances).
     * Many concurrent callers are never a failure: decisions then wait briefly for Redis.
     */
    @WithDefault("allow")
    OnRedisFailure onRedisFailure();

    /**
     * With {@code on-redis-failure=local}: how many instances are expected to share each policy while Redis is
     * unreachable. Each instance enforces {@code limit / expected-instances} (and {@code burst / expected-instances}),
     * at least 1.
     */
    @WithDefault("1")
    int expectedInstances();

    /**
     * The time budget of one decision: how long Redis may stay silent while the decision waits for its answer. Waiting
     * behind other callers' decisions while Redis keeps answering does not count, so load alone never makes a decision
     * fall back; no decision waits more than four budgets in all. When the budget runs out the decision follows
     * {@code on-redis-failure}.
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
     * The local short-circuit of rejected keys: after Redis rejected a call on a key with a retry-after, this instance
     * rejects further calls on it (of the same or a larger cost) by itself until the retry-after has passed, with the
     * same decision data, never for {@code CONCURRENCY} or shadow policies. A {@code reset} on any instance clears it
     * on every instance (over pub/sub on {@code <key-prefix>:throttle-resets}).
     */
    LocalRejectionsConfig localRejections();

    /**
     * Limits per key: how the answers of a {@code ThrottleLimitResolver} ({@code @Throttled(limits = ...)}) are cached
     * and what a failing resolver means.
     */
    LimitsConfig limits();

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
        REJECT,
        /** Decide in memory, per instance, until Redis answers again. */
        LOCAL
    }

    /**
     * The local short-circuit of rejected keys.
     */
    interface LocalRejectionsConfig {

        /**
         * Whether rejected keys are short-circuited locally until their retry-after has passed. Turn it off to send
         * every call to Redis.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * The most rejected (policy, key) pairs remembered by one instance; beyond it, new rejections are not
         * remembered until old ones expire. An entry takes about 80 bytes plus its key, so the default costs at most
         * about 7 MB of heap with keys of a few dozen characters. Size it for every throttled policy together: two
         * policies rejecting the same 10,000 clients are 20,000 pairs.
         */
        @WithDefault("50000")
        int maxSize();
    }

    /**
     * Limits per key, from a {@code ThrottleLimitResolver}.
     */
    interface LimitsConfig {

        /**
         * How long this instance keeps a resolver's answer for a (policy, key) before asking again: a key's new limit
         * (an upgrade from a free to a paid plan) applies after at most this long. Use a runtime override
         * ({@code Throttler.override}) for a change that must apply at once.
         */
        @WithDefault("30s")
        Duration cacheTtl();

        /**
         * The most (policy, key) answers one instance keeps; beyond it, the oldest are dropped and asked again.
         */
        @WithDefault("10000")
        int cacheMaxSize();

        /**
         * How long a decision waits for a resolver's answer; a resolver slower than this counts as failed.
         */
        @WithDefault("1s")
        Duration timeout();

        /**
         * What a decision uses when the resolver throws, fails, answers {@code null} or an invalid limit, or does not
         * answer within {@code timeout}: {@code annotation} uses the policy's own limit (the annotation's, as the
         * configuration overrides it), {@code reject} rejects the call. The failure is kept for at most one second
         * (or {@code cache-ttl} if shorter), then the resolver is asked again; it is logged at WARN, naming the
         * policy and the key, at most once per policy every ten seconds.
         */
        @WithDefault("annotation")
        OnResolverFailure onFailure();
    }

    /**
     * What a decision uses when a {@code ThrottleLimitResolver} fails.
     */
    enum OnResolverFailure {
        /** The policy's own limit (annotation, overridden by configuration). */
        ANNOTATION,
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
        OptionalInt limit();

        /**
         * The window, e.g. {@code 500ms}, {@code 1s}, {@code 5m}, {@code 1h}, {@code 1d} or ISO-8601 ({@code PT30S}).
         */
        Optional<Duration> window();

        /**
         * Bucket capacity for {@code TOKEN_BUCKET} and {@code LEAKY_BUCKET}; positive.
         */
        OptionalInt burst();

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

        /**
         * For {@code CONCURRENCY} policies: whether a call made while the same thread or the same reactive call chain
         * already holds a permit of this policy and key enters without taking a second one. Default: {@code true} when
         * the limit is 1 (a lock, where a second permit could only deadlock), else {@code false}.
         */
        Optional<Boolean> reentrant();
    }
}
