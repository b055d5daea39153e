package io.quarkiverse.pacer.throttle;

import java.util.Arrays;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;

// @formatter:off
/**
 * A throttling key built from several values, exactly as the {@link ThrottleKey} parameters of a {@link Throttled}
 * method build it, so that {@link Throttler} calls can address the same key: to reset or inspect the limit of one
 * caller of a method keyed by two parameters, for example.
 *
 * <pre>{@code
 * @Throttled(name = "search", limit = 100, window = "1m")
 * public List<Hit> search(@ThrottleKey String tenant, @ThrottleKey String region, String query) {
 *     return index.search(tenant, region, query);
 * }
 *
 * // elsewhere: give tenant "acme" in region "eu" a fresh start
 * void freshStart() {
 *     throttler.reset("search", CompositeKey.of("acme", "eu"));
 * }
 * }</pre>
 *
 * Each part counts by its {@code toString()}, in order; {@code null} is a value of its own, distinct from the string
 * {@code "null"}. A key of one part equals the plain value: {@code CompositeKey.of("acme")} and {@code "acme"} address
 * the same key.
 */
// @formatter:on
public final class CompositeKey {

    private static final CompositeKey GLOBAL = new CompositeKey(ThrottleKeyBuilder.GLOBAL);

    private final String value;

    private CompositeKey(String value) {
        this.value = value;
    }

    /**
     * The key of these parts, in the order of the method's {@link ThrottleKey} parameters.
     *
     * @param parts the values, at least one; a {@code null} element is a value of its own
     * @return the key
     * @throws IllegalArgumentException when no part is given
     */
    public static CompositeKey of(Object... parts) {
        if (parts == null || parts.length == 0) {
            throw new IllegalArgumentException("A CompositeKey needs at least one part; use CompositeKey.global()"
                    + " for the key of a policy without key parameters");
        }
        return new CompositeKey(ThrottleKeyBuilder.ofParts(Arrays.copyOf(parts, parts.length)));
    }

    /**
     * The single key of a policy whose methods have no {@link ThrottleKey} parameter and no key resolver; the same as
     * passing a {@code null} key to {@link Throttler}.
     *
     * @return the global key
     */
    public static CompositeKey global() {
        return GLOBAL;
    }

    /**
     * The key as Pacer stores it and reports it in {@link ThrottleDecision#key()}: parts joined by {@code ,} with
     * {@code \} and {@code ,} escaped, hashed when longer than 100 characters.
     *
     * @return the encoded key; the empty string for the global key
     */
    public String value() {
        return value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CompositeKey key && key.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    /**
     * @return the encoded key, as {@link #value()}
     */
    @Override
    public String toString() {
        return value;
    }
}
