package io.quarkiverse.pacer.runtime.throttle.http;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestFilter;

import io.quarkiverse.pacer.runtime.throttle.interceptor.AdvanceDecisions;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;

/**
 * Decides the {@code @Throttled} REST endpoints whose key the request carries before their method is dispatched: a
 * non-blocking request filter (registered when Quarkus REST is present), so it runs on the HTTP event loop, before a
 * blocking method is handed to a worker thread. A permitted request goes on, and the interceptor runs the method
 * without deciding again; a rejected one fails with {@code ThrottledException}, mapped to {@code 429} on the event
 * loop, and never reaches the method or a worker thread. {@code CONCURRENCY} leases end when the response is written.
 * An endpoint keyed by the principal waits for the request's security identity without blocking, and is decided on
 * the request's context once it is known.
 */
public class ThrottledEndpointFilter implements ResteasyReactiveContainerRequestFilter {

    // Quarkus REST creates its filters at static init, before the runtime configuration the decisions need exists:
    // both beans are looked up at the first request.
    private final Instance<ThrottledEndpoints> endpointsBean;
    private final Instance<AdvanceDecisions> decisionsBean;
    private volatile ThrottledEndpoints endpoints;
    private volatile AdvanceDecisions decisions;
    /** Created at the first request of an endpoint keyed by the principal. */
    private volatile RequestPrincipal principal;

    @Inject
    public ThrottledEndpointFilter(Instance<ThrottledEndpoints> endpoints, Instance<AdvanceDecisions> decisions) {
        this.endpointsBean = endpoints;
        this.decisionsBean = decisions;
    }

    @Override
    public void filter(ResteasyReactiveContainerRequestContext context) {
        AdvanceDecisions decisions = this.decisions;
        ThrottledEndpoints endpoints = this.endpoints;
        if (decisions == null || endpoints == null) {
            this.decisions = decisions = decisionsBean.get();
            this.endpoints = endpoints = endpointsBean.get();
        }
        if (!decisions.enabled()) {
            return;
        }
        ResteasyReactiveRequestContext request = (ResteasyReactiveRequestContext) context.getServerRequestContext();
        ThrottledEndpoints.EndpointKey endpoint = endpoints.of(request);
        if (endpoint == null) {
            return;
        }
        if (endpoint.byPrincipal()) {
            decideByPrincipal(context, request, decisions, endpoint.methodIndex);
            return;
        }
        String key = endpoint.key(request, decisions);
        context.suspend();
        decide(context, request, decisions, endpoint.methodIndex, key);
    }

    private void decideByPrincipal(ResteasyReactiveContainerRequestContext context,
            ResteasyReactiveRequestContext request, AdvanceDecisions decisions, int methodIndex) {
        RequestPrincipal principal = this.principal;
        if (principal == null) {
            this.principal = principal = new RequestPrincipal();
        }
        // The identity association is request-scoped.
        request.requireCDIRequestScope();
        Context requestContext = Vertx.currentContext();
        context.suspend();
        principal.key().subscribe().with(key -> {
            if (requestContext == null
                    || (Vertx.currentContext() == requestContext && Context.isOnEventLoopThread())) {
                decide(context, request, decisions, methodIndex, key);
            } else {
                // Authenticated on another thread (an identity provider that blocks runs on a worker, possibly on the
                // request's context): the decision is made on the request's event loop, as for every other endpoint.
                requestContext.runOnContext(ignored -> decide(context, request, decisions, methodIndex, key));
            }
        }, context::resume);
    }

    /** Decides a suspended request and resumes it: permitted, or failed with the rejection. */
    private static void decide(ResteasyReactiveContainerRequestContext context, ResteasyReactiveRequestContext request,
            AdvanceDecisions decisions, int methodIndex, String key) {
        try {
            decisions.decide(methodIndex, key).subscribe().with(lease -> {
                if (lease != null) {
                    RoutingContext routing = request.serverRequest().unwrap(RoutingContext.class);
                    routing.addEndHandler(ended -> lease.close());
                    if (routing.response().ended() || routing.response().closed()) {
                        // The client went away while Redis decided: no response will be written to end the lease.
                        lease.close();
                    }
                }
                context.resume();
            }, context::resume);
        } catch (RuntimeException e) {
            context.resume(e);
        }
    }
}
