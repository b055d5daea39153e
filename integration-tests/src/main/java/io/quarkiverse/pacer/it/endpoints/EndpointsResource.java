package io.quarkiverse.pacer.it.endpoints;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.OnLimit;
import io.quarkiverse.pacer.throttle.PrincipalKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.smallrye.mutiny.Uni;

/**
 * Throttled endpoints whose key the request carries, decided before the method is dispatched, next to an endpoint
 * calling a throttled bean with the same limit; {@link EndpointProbe} shows what each request reached.
 */
@Path("/endpoints")
public class EndpointsResource {

    @Inject
    EndpointProbe probe;

    @Inject
    LimitedService service;

    /** Blocking ({@code String}, a worker thread): two calls per user an hour. */
    @GET
    @Path("/blocking/{user}")
    @Throttled(name = "it-endpoint", limit = 2, window = "1h")
    public String blocking(@PathParam("user") @ThrottleKey String user) {
        probe.ran("blocking-method");
        return "hello " + user;
    }

    /** The same limit on a CDI bean the endpoint calls. */
    @GET
    @Path("/bean/{user}")
    public String bean(@PathParam("user") String user) {
        probe.ran("bean-endpoint");
        return service.call(user);
    }

    /**
     * Waits for the next permit instead of rejecting ({@code onLimit = WAIT}): one call per user every 600 ms. The wait
     * is a timer in the request filter, before the method is dispatched to a worker.
     */
    @GET
    @Path("/waiting/{user}")
    @Throttled(name = "it-endpoint-wait", limit = 1, window = "600ms", onLimit = OnLimit.WAIT, maxWait = "5s")
    public String waiting(@PathParam("user") @ThrottleKey String user) {
        probe.ran("waiting-method");
        return "hello " + user;
    }

    /** The same waiting limit on a CDI bean the endpoint calls: the interceptor waits on the worker. */
    @GET
    @Path("/bean-waiting/{user}")
    public String beanWaiting(@PathParam("user") String user) {
        probe.ran("bean-waiting-endpoint");
        return service.callWaiting(user);
    }

    /**
     * Keyed by the authenticated user (HTTP Basic, see {@link DemoUsers}; the demo authenticates lazily, so the
     * request filter is what authenticates the request): two calls per user an hour.
     */
    @GET
    @Path("/principal")
    @Throttled(name = "it-endpoint-principal", limit = 2, window = "1h", key = PrincipalKeyResolver.class)
    public String principal(@Context SecurityContext security) {
        probe.ran("principal-method");
        return "hello " + security.getUserPrincipal().getName();
    }

    /** The same limit on a CDI bean the endpoint calls. */
    @GET
    @Path("/bean-principal")
    public String beanPrincipal() {
        probe.ran("bean-principal-endpoint");
        return service.callByPrincipal();
    }

    /** Keyed by the {@code X-Api-Key} header, through a {@link ApiKeyResolver}: two calls per key an hour. */
    @GET
    @Path("/api-key")
    @Throttled(name = "it-endpoint-api-key", limit = 2, window = "1h", key = ApiKeyResolver.class)
    public String apiKey() {
        probe.ran("api-key-method");
        return "hello";
    }

    /** The same limit on a CDI bean the endpoint calls. */
    @GET
    @Path("/bean-api-key")
    public String beanApiKey() {
        probe.ran("bean-api-key-endpoint");
        return service.callByApiKey();
    }

    /** Reactive ({@code Uni}, the event loop), keyed by a header, stacked: one call per tenant a minute. */
    @GET
    @Path("/reactive")
    @Throttled(name = "it-endpoint-daily", limit = 100, window = "1d", algorithm = Algorithm.SLIDING_WINDOW)
    @Throttled(name = "it-endpoint-minute", limit = 1, window = "1m")
    public Uni<String> reactive(@HeaderParam("X-Tenant") @ThrottleKey String tenant) {
        probe.ran("reactive-method");
        return Uni.createFrom().item("results for " + tenant);
    }

    /** One call at a time per user; {@code ?fail=true} makes the method throw. */
    @GET
    @Path("/leased/{user}")
    @Throttled(name = "it-endpoint-lease", limit = 1, window = "1m", algorithm = Algorithm.CONCURRENCY)
    public String leased(@PathParam("user") @ThrottleKey String user, @QueryParam("fail") boolean fail) {
        probe.ran("leased-method");
        if (fail) {
            throw new IllegalStateException("failed on purpose");
        }
        return "done";
    }

    @GET
    @Path("/probe")
    public String report() {
        return probe.report();
    }

    @DELETE
    @Path("/probe")
    public void clear() {
        probe.clear();
    }
}
