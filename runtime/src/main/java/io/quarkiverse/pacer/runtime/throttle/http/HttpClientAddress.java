package io.quarkiverse.pacer.runtime.throttle.http;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * Reads the current HTTP client's address. Kept apart from the public resolver so Vert.x HTTP classes are only
 * loaded when the resolver is actually used (the build rejects it when Vert.x HTTP is absent).
 */
public final class HttpClientAddress {

    private HttpClientAddress() {
    }

    /** The current request's remote host, or {@code null} outside an HTTP request. */
    public static String current() {
        InstanceHandle<CurrentVertxRequest> handle = Arc.container().instance(CurrentVertxRequest.class);
        if (!handle.isAvailable()) {
            return null;
        }
        RoutingContext context;
        try {
            context = handle.get().getCurrent();
        } catch (RuntimeException noActiveRequest) {
            return null;
        }
        return context == null ? null : of(context);
    }

    /** The remote host of {@code context}'s request. */
    public static String of(RoutingContext context) {
        SocketAddress remote = context.request().remoteAddress();
        return remote == null ? null : remote.hostAddress();
    }
}
