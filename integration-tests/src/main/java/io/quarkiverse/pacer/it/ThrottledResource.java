package io.quarkiverse.pacer.it;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ClientAddressKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.smallrye.mutiny.Uni;

/**
 * Throttled endpoints: a rejected call becomes {@code 429 Too Many Requests} with {@code Retry-After} and the IETF
 * {@code RateLimit-Policy}/{@code RateLimit} headers; permitted calls carry the two {@code RateLimit} headers too.
 */
@Path("/throttled")
public class ThrottledResource {

    /** Blocking endpoint (worker thread), one global limit shared by every instance. */
    @GET
    @Path("/ping")
    @Throttled(name = "it-ping", limit = 3, window = "1h")
    public String ping() {
        return "pong";
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
