package io.quarkiverse.pacer.runtime.throttle.http;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;
import io.quarkus.arc.Arc;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * The key {@code PrincipalKeyResolver} gives a request, for the request filter: from Quarkus Security's deferred
 * identity, which is subscribed to, never awaited. With proactive authentication it is already known; with lazy
 * authentication subscribing authenticates the request, on whichever thread the identity providers use.
 */
final class RequestPrincipal {

    /** The client proxy of the request-scoped association: each call reaches the current request's. */
    private final CurrentIdentityAssociation identities;

    RequestPrincipal() {
        this.identities = Arc.container().instance(CurrentIdentityAssociation.class).get();
    }

    /** The current request's principal key; the CDI request scope must be active. */
    Uni<String> key() {
        return identities.getDeferredIdentity().map(RequestPrincipal::key);
    }

    private static String key(SecurityIdentity identity) {
        return ThrottleKeyBuilder.of(ThrottleKeyBuilder.principalName(identity == null ? null : identity.getPrincipal()));
    }
}
