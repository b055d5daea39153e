package io.quarkiverse.pacer.it.plans;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.Throttler;

/**
 * Limits per plan ({@link PlanLimits}) and a runtime override set through one instance, for the two-instance exactness
 * test: plans per day, so no test run crosses a window.
 */
@Path("/plans")
public class ExactPlansResource {

    @Inject
    Throttler throttler;

    @POST
    @Path("/exact/{tenant}")
    @Throttled(name = "it-plans-exact", limit = 1, window = "1d", algorithm = Algorithm.FIXED_WINDOW, limits = PlanLimits.class)
    public String exact(@PathParam("tenant") @ThrottleKey String tenant) {
        return "ok";
    }

    /** The limit a tenant has now under a policy (its plan, or the override), without taking a permit. */
    @GET
    @Path("/limit/{policy}/{tenant}")
    public long limit(@PathParam("policy") String policy, @PathParam("tenant") String tenant) {
        return throttler.peek(policy, tenant).limit();
    }

    @PUT
    @Path("/override/{policy}")
    public Response override(@PathParam("policy") String policy, @QueryParam("limit") Integer limit) {
        throttler.override(policy, new ThrottleOverride(limit, (Duration) null, null, null, null));
        return Response.noContent().build();
    }

    @DELETE
    @Path("/override/{policy}")
    public Response clear(@PathParam("policy") String policy) {
        throttler.clearOverride(policy);
        return Response.noContent().build();
    }
}
