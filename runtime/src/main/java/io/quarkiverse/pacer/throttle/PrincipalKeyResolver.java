package io.quarkiverse.pacer.throttle;

import java.security.Principal;

import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.inject.Singleton;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;

// @formatter:off
/**
 * A built-in {@link ThrottleKeyResolver}: the name of the caller's {@link Principal} (from Quarkus Security), so each
 * authenticated user gets their own limit. Anonymous callers (no principal, or an empty name) share the {@code null}
 * key. A Quarkus REST endpoint keyed by it is decided before its method is dispatched, on the HTTP event loop, from
 * the request's security identity, which is never awaited: with lazy authentication
 * ({@code quarkus.http.auth.proactive=false}) the request is authenticated there without blocking, and a request whose
 * credentials are rejected fails as Quarkus Security fails it (a {@code 401}) without taking a permit.
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

    /** Creates the resolver; CDI does, for {@code key = PrincipalKeyResolver.class}. */
    public PrincipalKeyResolver() {
    }

    @Override
    public String resolve(InvocationContext invocation) {
        InstanceHandle<Principal> handle = Arc.container().instance(Principal.class);
        if (!handle.isAvailable()) {
            return null;
        }
        try {
            return ThrottleKeyBuilder.principalName(handle.get());
        } catch (ContextNotActiveException noActiveRequest) {
            // Outside a request there is no caller to tell apart. Anything else (credentials Quarkus Security rejects,
            // an identity that cannot be had without blocking) fails the call instead of sharing the anonymous key.
            return null;
        }
    }
}
