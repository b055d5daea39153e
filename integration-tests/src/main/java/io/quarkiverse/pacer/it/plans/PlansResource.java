package io.quarkiverse.pacer.it.plans;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
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
 * An API sold in plans: one policy, each tenant's limit from its plan ({@link PlanLimits}), and an operator's runtime
 * override of the policy that every instance enforces within a second (demo endpoints, unprotected).
 */
@Path("/plans")
public class PlansResource {

    @Inject
    Throttler throttler;

    /** {@code free-*} tenants: 5 calls a minute; {@code pro-*}: 50; each tenant counted on its own. */
    @GET
    @Path("/{tenant}/report")
    @Throttled(name = "it-plans", limit = 1, window = "1m", algorithm = Algorithm.FIXED_WINDOW, limits = PlanLimits.class)
    public String report(@PathParam("tenant") @ThrottleKey String tenant) {
        return "report for " + tenant;
    }

    /** The limit a tenant has now under a policy (its plan, or the override), without taking a permit. */
    @GET
    @Path("/limit/{policy}/{tenant}")
    public long limit(@PathParam("policy") String policy, @PathParam("tenant") String tenant) {
        return throttler.peek(policy, tenant).limit();
    }

    /**
     * Demo only: overrides a policy on every instance, e.g. {@code PUT /plans/override/it-plans?limit=2}; optional
     * {@code windowMs}, {@code burst}, {@code enabled}, {@code shadow}.
     */
    @PUT
    @Path("/override/{policy}")
    public Response override(@PathParam("policy") String policy, @QueryParam("limit") Integer limit,
            @QueryParam("windowMs") Long windowMs, @QueryParam("burst") Integer burst,
            @QueryParam("enabled") Boolean enabled, @QueryParam("shadow") Boolean shadow) {
        try {
            throttler.override(policy, new ThrottleOverride(limit, windowMs == null ? null : Duration.ofMillis(windowMs),
                    burst, enabled, shadow));
        } catch (IllegalArgumentException invalid) {
            return Response.status(Response.Status.BAD_REQUEST).entity(invalid.getMessage()).build();
        }
        return Response.noContent().build();
    }

    /** Demo only: removes a policy's override on every instance. */
    @DELETE
    @Path("/override/{policy}")
    public Response clear(@PathParam("policy") String policy) {
        try {
            throttler.clearOverride(policy);
        } catch (IllegalArgumentException unknownPolicy) {
            return Response.status(Response.Status.NOT_FOUND).entity(unknownPolicy.getMessage()).build();
        }
        return Response.noContent().build();
    }
}
