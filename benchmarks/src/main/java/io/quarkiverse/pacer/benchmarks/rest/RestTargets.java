package io.quarkiverse.pacer.benchmarks.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;

/**
 * The REST endpoints of the REST rows: one method without Pacer and the same method with {@code @Throttled} (a limit
 * never reached, keyed by the path's user), both blocking as Quarkus REST runs a {@code String} method by default.
 */
@Path("/bench")
public class RestTargets {

    public static final String POLICY = "bench-rest";

    @GET
    @Path("plain/{user}")
    public String plain(@PathParam("user") String user) {
        return "ok";
    }

    @GET
    @Path("throttled/{user}")
    @Throttled(name = POLICY, limit = 1_000_000_000, window = "1s", algorithm = Algorithm.TOKEN_BUCKET)
    public String throttled(@PathParam("user") @ThrottleKey String user) {
        return "ok";
    }
}
