package io.quarkiverse.pacer.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ClientAddressKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.Throttler;
import io.smallrye.mutiny.Uni;

/**
 * Throttled endpoints: a rejected call becomes {@code 429 Too Many Requests} with {@code Retry-After} and the IETF
 * {@code RateLimit-Policy}/{@code RateLimit} headers; permitted calls carry the two {@code RateLimit} headers too.
 */
@Path("/throttled")
public class ThrottledResource {

    @Inject
    Throttler throttler;

    /**
     * Blocking endpoint (worker thread), one global limit shared by every instance: 3 calls, then one more every 10 s.
     */
    @GET
    @Path("/ping")
    @Throttled(name = "it-ping", limit = 3, window = "30s")
    public String ping() {
        return "pong";
    }

    /**
     * Demo only: gives a key (blank or absent: the global key) its full capacity again under one policy, e.g.
     * {@code DELETE /throttled/limits/it-ping} or {@code DELETE /throttled/limits/it-search-burst?key=acme}.
     */
    @DELETE
    @Path("/limits/{policy}")
    public Response reset(@PathParam("policy") String policy, @QueryParam("key") String key) {
        try {
            throttler.reset(policy, key == null || key.isBlank() ? null : key);
        } catch (IllegalArgumentException unknownPolicy) {
            return Response.status(Response.Status.NOT_FOUND).entity(unknownPolicy.getMessage()).build();
        }
        return Response.noContent().build();
    }

    /** Reactive endpoint (event loop), one limit per tenant, stacked with a daily quota. */
    @GET
    @Path("/search")
    @Throttled(name = "it-search", limit = 100, window = "1d", algorithm = Algorithm.SLIDING_WINDOW)
    @Throttled(name = "it-search-burst", limit = 2, window = "1m")
    public Uni<String> search(@QueryParam("tenant") @ThrottleKey String tenant) {
        return Uni.createFrom().item("results for " + tenant);
    }

    /** One limit per HTTP client address. */
    @GET
    @Path("/client")
    @Throttled(name = "it-client", limit = 1, window = "1h", key = ClientAddressKeyResolver.class)
    public String client() {
        return "hello";
    }

    /** Two stacked buckets: the inner one rejects the second call, the outer one would have admitted it. */
    @GET
    @Path("/stacked")
    @Throttled(name = "it-stack-outer", limit = 100, window = "1h")
    @Throttled(name = "it-stack-inner", limit = 1, window = "1h")
    public String stacked() {
        return "stacked";
    }

    /** The same stack, watched by the metrics test. */
    @GET
    @Path("/stacked-metered")
    @Throttled(name = "it-metered-outer", limit = 100, window = "1h")
    @Throttled(name = "it-metered-inner", limit = 1, window = "1h")
    public String stackedMetered() {
        return "stacked";
    }

    /** Watched by the metrics test. */
    @GET
    @Path("/metered")
    @Throttled(name = "it-metered", limit = 1, window = "1h")
    public String metered() {
        return "metered";
    }
}
