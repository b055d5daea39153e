package io.quarkiverse.pacer.benchmarks.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.smallrye.mutiny.Uni;

/**
 * The REST endpoints of the REST rows: one method without Pacer and the same method with {@code @Throttled} (a limit
 * never reached, keyed by the path's user), as a {@code String} method (blocking, a worker thread, Quarkus REST's
 * default) and as a {@code Uni} method (the event loop); and a method whose limit rejects every request but the first.
 */
@Path("/bench")
public class RestTargets {

    public static final String POLICY = "bench-rest";
    public static final String POLICY_UNI = "bench-rest-uni";
    public static final String POLICY_REJECTED = "bench-rest-rejected";

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

    @GET
    @Path("plain-uni/{user}")
    public Uni<String> plainUni(@PathParam("user") String user) {
        return Uni.createFrom().item("ok");
    }

    @GET
    @Path("throttled-uni/{user}")
    @Throttled(name = POLICY_UNI, limit = 1_000_000_000, window = "1s", algorithm = Algorithm.TOKEN_BUCKET)
    public Uni<String> throttledUni(@PathParam("user") @ThrottleKey String user) {
        return Uni.createFrom().item("ok");
    }

    /** A limit of one call an hour: after the first call every request is rejected. */
    @GET
    @Path("rejected/{user}")
    @Throttled(name = POLICY_REJECTED, limit = 1, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
    public String rejected(@PathParam("user") @ThrottleKey String user) {
        return "ok";
    }
}
