package io.quarkiverse.pacer.throttle;

import java.security.Principal;

import jakarta.inject.Singleton;
import jakarta.interceptor.InvocationContext;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;

// @formatter:off
/**
 * A built-in {@link ThrottleKeyResolver}: the name of the caller's {@link Principal} (from Quarkus Security), so each
 * authenticated user gets their own limit. Anonymous callers (no principal, or an empty name) share the {@code null}
 * key.
 *
 * <pre>{@code
 * @Throttled(limit = 60, window = "1m", key = PrincipalKeyResolver.class)
 * public Profile me() {
 *     return profiles.current();
 * }
 * }</pre>
 */
// @formatter:on
@Singleton
public class PrincipalKeyResolver implements ThrottleKeyResolver {

    @Override
    public String resolve(InvocationContext invocation) {
        InstanceHandle<Principal> handle = Arc.container().instance(Principal.class);
        if (!handle.isAvailable()) {
            return null;
        }
        try {
            String name = handle.get().getName();
            return name == null || name.isEmpty() ? null : name;
        } catch (RuntimeException noActiveRequest) {
            // Outside a request there is no caller to tell apart.
            return null;
        }
    }
}
