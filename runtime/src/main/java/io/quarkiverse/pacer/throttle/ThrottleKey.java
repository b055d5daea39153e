package io.quarkiverse.pacer.throttle;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

// @formatter:off
/**
 * Marks a parameter of a {@link Throttled} method as part of the throttling key, like {@code @CacheKey}: each distinct
 * value gets its own limit.
 * <p>
 * Several {@code @ThrottleKey} parameters combine (in declaration order) into one key; {@code null} is a value of its
 * own, distinct from the string {@code "null"}; the argument's {@code toString()} is used, and keys longer than 100
 * characters are replaced by their SHA-256 digest. A {@code @ThrottleKey} on a method without {@code @Throttled}
 * fails the build.
 *
 * <pre>{@code
 * @Throttled(limit = 100, window = "1m") // 100 per minute per tenant
 * public Uni<List<Hit>> search(@ThrottleKey String tenant, String query) {
 *     return index.search(tenant, query);
 * }
 * }</pre>
 */
// @formatter:on
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface ThrottleKey {
}
