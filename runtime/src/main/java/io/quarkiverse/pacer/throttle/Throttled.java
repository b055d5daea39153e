package io.quarkiverse.pacer.throttle;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;

// @formatter:off
/**
 * Distributed rate limiting of a CDI bean method: every instance of the application shares one limit, decided by one
 * atomic Lua script in Redis with time taken from the Redis server.
 * <p>
 * On a method, the policy applies to that method; on a bean class, to each non-private business method declared in
 * that class, each with its own policy named {@code <class FQCN>#<method>} unless {@code name} is set (a method's own
 * {@code @Throttled} wins over the class's). The annotation is not inherited by subclasses. The annotation is repeatable:
 * stacked policies must
 * <em>all</em> pass, and they are decided all-or-nothing in one script call (if one rejects, no permit of any of them
 * is consumed).
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class Api {
 *     @Throttled(limit = 10, window = "1s") // per method, shared by all instances
 *     public String ping() {
 *         return "pong";
 *     }
 *
 *     @Throttled(name = "search", limit = 100, window = "1m", algorithm = Algorithm.SLIDING_WINDOW)
 *     @Throttled(name = "search-burst", limit = 5, window = "1s") // stacked: all must pass
 *     public Uni<List<Hit>> search(@ThrottleKey String tenant, String q) {
 *         return index.search(tenant, q);
 *     }
 * }
 * }</pre>
 *
 * A rejected call throws {@link ThrottledException}; for methods returning {@code Uni} or {@code CompletionStage} the
 * check happens at subscription and the failure is delivered through the returned type. Invalid values (an
 * unparseable {@code window}, {@code limit <= 0}, a {@code cost} above the capacity, ...) fail the build.
 * <p>
 * Every setting but {@code name}, {@code cost}, {@code key}, {@code limits}, {@code onLimit} and {@code maxWait} can be
 * overridden by configuration with {@code quarkus.pacer.throttle."<policy>".limit|window|burst|algorithm|enabled|shadow};
 * a {@link #limits()} resolver gives each key its own limit, and {@link Throttler#override} changes limit, window,
 * burst, enabled and shadow live on every instance. Precedence: runtime override &gt; resolver &gt; configuration
 * &gt; annotation.
 */
// @formatter:on
@Documented
@InterceptorBinding
@Repeatable(Throttled.List.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.METHOD, ElementType.TYPE })
public @interface Throttled {

    /**
     * The priority of Pacer's {@code @Throttled} interceptor: {@code Interceptor.Priority.PLATFORM_BEFORE + 100}. Lower
     * priorities run first (outside), so on one method:
     * <ul>
     * <li>security checks ({@code @RolesAllowed}, {@code @Authenticated}, ...) run before it: a denied call takes no
     * permit;</li>
     * <li>{@code @CacheResult} runs before it: a cached result takes no permit;</li>
     * <li>Fault Tolerance ({@code @Retry}, {@code @Timeout}, {@code @Fallback}, ...) runs after it, inside the permit: a
     * call takes one permit however often {@code @Retry} repeats the method, and a rejection
     * ({@link ThrottledException}) is never retried by the method's own {@code @Retry} (to retry rejections, put
     * {@code @Retry(retryOn = ThrottledException.class)} on a caller).</li>
     * </ul>
     */
    int INTERCEPTOR_PRIORITY = Interceptor.Priority.PLATFORM_BEFORE + 100;

    /**
     * The policy name, used in Redis keys, configuration and metrics. Methods sharing a name share one limit (their
     * settings must then be identical). Default: {@code <class FQCN>#<method name>}.
     *
     * @return the policy name, or empty for the default
     */
    @Nonbinding
    String name() default "";

    /**
     * Permits per {@link #window()} (for {@link Algorithm#CONCURRENCY}: calls in flight). Must be positive.
     *
     * @return the permits per window
     */
    @Nonbinding
    int limit();

    /**
     * The window: {@code "500ms"}, {@code "1s"}, {@code "5m"}, {@code "1h"}, {@code "1d"} or an ISO-8601 duration
     * ({@code "PT30S"}); at least one millisecond, in whole milliseconds. For {@link Algorithm#CONCURRENCY} it is the
     * lease timeout after which a call that never completed (its instance crashed) stops counting.
     *
     * @return the window
     */
    @Nonbinding
    String window() default "1s";

    /**
     * How permits are counted. Default {@link Algorithm#TOKEN_BUCKET}.
     *
     * @return the algorithm
     */
    @Nonbinding
    Algorithm algorithm() default Algorithm.TOKEN_BUCKET;

    /**
     * Capacity of {@link Algorithm#TOKEN_BUCKET} and tolerance of {@link Algorithm#LEAKY_BUCKET}: the largest burst
     * admitted at once. {@code 0} (the default) means {@link #limit()}. Ignored by the other algorithms.
     *
     * @return the burst, or {@code 0} for the limit
     */
    @Nonbinding
    int burst() default 0;

    /**
     * Permits one call consumes. Must be positive and at most the capacity ({@code limit}, or {@code burst} for the
     * bucket algorithms): a call that could never pass fails the build.
     *
     * @return the permits one call consumes
     */
    @Nonbinding
    int cost() default 1;

    /**
     * A {@link ThrottleKeyResolver} bean class computing the key. Default ({@code ThrottleKeyResolver.class} itself):
     * the {@link ThrottleKey} parameters, or one global key per policy when there are none.
     *
     * @return the key resolver class
     */
    @Nonbinding
    Class<? extends ThrottleKeyResolver> key() default ThrottleKeyResolver.class;

    // @formatter:off
    /**
     * A {@link ThrottleLimitResolver} bean class giving each key its own limit (plans: free, pro, ...). Default
     * ({@code ThrottleLimitResolver.class} itself): every key has the policy's limit. Methods sharing the policy name
     * must name the same resolver.
     *
     * <pre>{@code
     * @Throttled(name = "api", limit = 100, window = "1m", limits = PlanLimits.class)
     * public Report report(@ThrottleKey String customer) {
     *     return reports.build(customer);
     * }
     * }</pre>
     *
     * @return the limit resolver class
     */
    // @formatter:on
    @Nonbinding
    Class<? extends ThrottleLimitResolver> limits() default ThrottleLimitResolver.class;

    /**
     * What to do when the policy rejects the call: {@link OnLimit#REJECT} (default) or {@link OnLimit#WAIT}.
     *
     * @return what a rejected call does
     */
    @Nonbinding
    OnLimit onLimit() default OnLimit.REJECT;

    /**
     * The longest {@link OnLimit#WAIT} waits for a permit, in the same format as {@link #window()}. Ignored with
     * {@link OnLimit#REJECT}.
     *
     * @return the longest wait
     */
    @Nonbinding
    String maxWait() default "1s";

    /**
     * Shadow mode: evaluate and record the decision (metrics, logs at DEBUG) but never reject; a shadow policy that
     * would reject does not block the other stacked policies either. Useful to try a limit on production traffic.
     *
     * @return whether the policy only records
     */
    @Nonbinding
    boolean shadow() default false;

    /**
     * The container of repeated {@link Throttled} annotations (stacked policies).
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ ElementType.METHOD, ElementType.TYPE })
    @interface List {

        /**
         * The stacked policies.
         *
         * @return the stacked annotations
         */
        Throttled[] value();
    }
}
