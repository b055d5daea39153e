package io.quarkiverse.pacer.runtime.throttle.http;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP request being served, for key resolvers called by the interceptor. Kept apart from the public resolvers so
 * Vert.x HTTP classes are only loaded when a resolver actually reads the request (the build rejects such resolvers
 * when Vert.x HTTP is absent).
 */
public final class CurrentHttpRequest {

    private CurrentHttpRequest() {
    }

    /** The current request, or {@code null} outside an HTTP request. */
    public static HttpServerRequest get() {
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
        return context == null ? null : context.request();
    }

    /** The remote host of {@code request} (honouring {@code quarkus.http.proxy.*} forwarding), or {@code null}. */
    public static String clientAddress(HttpServerRequest request) {
        SocketAddress remote = request.remoteAddress();
        return remote == null ? null : remote.hostAddress();
    }
}
