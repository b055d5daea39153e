package io.quarkiverse.pacer.runtime.throttle.http;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The IETF draft <em>RateLimit header fields for HTTP</em> (draft-ietf-httpapi-ratelimit-headers), structured-field
 * form, one list member per policy:
 * <ul>
 * <li>{@code RateLimit-Policy: "<policy>";q=<limit>;w=<window in s>} ({@code w} omitted for {@code CONCURRENCY},
 * whose limit is not per time window);</li>
 * <li>{@code RateLimit: "<policy>";r=<remaining>;t=<s>}, where {@code t} is the decision's reset-after in whole
 * seconds rounded up: the time until the quota is fully available again. Per algorithm: the end of the current
 * window ({@code FIXED_WINDOW}); until the current and previous windows' permits no longer count
 * ({@code SLIDING_WINDOW}); until the newest permit leaves the window ({@code SLIDING_LOG}); until the bucket is full
 * again ({@code TOKEN_BUCKET}, {@code LEAKY_BUCKET}); until the latest lease would expire ({@code CONCURRENCY}, an
 * upper bound: calls usually end sooner). {@code t} is never below {@code Retry-After}.</li>
 * </ul>
 * A permitted call's outcome is remembered in the request's duplicated Vert.x context, so a response filter can send
 * the headers on success too.
 */
public final class RateLimitHeaders {

    static final String POLICY = "RateLimit-Policy";
    static final String STATE = "RateLimit";
    private static final String OUTCOME_KEY = RateLimitHeaders.class.getName() + ".outcome";

    private final StringBuilder policy = new StringBuilder();
    private final StringBuilder state = new StringBuilder();

    /** Appends one policy: its name, limit, algorithm and window, and the decision's remaining and reset-after. */
    RateLimitHeaders add(String name, long limit, Algorithm algorithm, long windowMicros, long remaining,
            long resetAfterMicros) {
        if (policy.length() > 0) {
            policy.append(", ");
            state.append(", ");
        }
        String quoted = sfString(name);
        policy.append(quoted).append(";q=").append(limit);
        if (algorithm != Algorithm.CONCURRENCY && windowMicros > 0) {
            policy.append(";w=").append(ceilSeconds(windowMicros));
        }
        state.append(quoted).append(";r=").append(Math.max(0, remaining)).append(";t=")
                .append(ceilSeconds(resetAfterMicros));
        return this;
    }

    /** The headers of every enforcing (non-shadow) policy of a permitted call. */
    static RateLimitHeaders of(ThrottleOutcome outcome) {
        RateLimitHeaders headers = new RateLimitHeaders();
        for (int i = 0; i < outcome.size(); i++) {
            ThrottlePolicy policy = outcome.stack().policies[i];
            if (!policy.shadow) {
                headers.add(policy.name, policy.limit, policy.algorithm, policy.windowMicros,
                        outcome.remaining(i), outcome.resetAfterMicros(i));
            }
        }
        return headers;
    }

    boolean isEmpty() {
        return policy.length() == 0;
    }

    String policy() {
        return policy.toString();
    }

    String state() {
        return state.toString();
    }

    static long ceilSeconds(long micros) {
        return micros <= 0 ? 0 : (micros + 999_999) / 1_000_000;
    }

    /** The request context of the calling thread, or {@code null} outside a request (duplicated context). */
    public static Context requestContext() {
        Context context = Vertx.currentContext();
        return context != null && VertxContext.isDuplicatedContext(context) ? context : null;
    }

    /** Remembers the first permitted outcome of a request (the endpoint's own, before those of beans it calls). */
    public static void remember(Context requestContext, ThrottleOutcome outcome) {
        if (requestContext != null && !outcome.fallback() && requestContext.getLocal(OUTCOME_KEY) == null) {
            requestContext.putLocal(OUTCOME_KEY, outcome);
        }
    }

    /** The outcome remembered for the current request, or {@code null}. */
    static ThrottleOutcome remembered() {
        Context context = requestContext();
        return context == null ? null : context.getLocal(OUTCOME_KEY);
    }

    /** A structured-field string (RFC 8941): printable ASCII with {@code "} and {@code \} escaped. */
    static String sfString(String value) {
        StringBuilder quoted = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                quoted.append(c);
            } else {
                quoted.append('?');
            }
        }
        return quoted.append('"').toString();
    }
}
