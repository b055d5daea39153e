package io.quarkiverse.pacer.optional.app;

import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

@Path("/checkout/{order}")
@Produces(MediaType.APPLICATION_JSON)
public class CheckoutResource {

    @Inject
    Checkout checkout;

    /** Commits: the timeout is stored after the commit. */
    @POST
    public Map<String, Object> place(@PathParam("order") String order) {
        long inside = checkout.place(order);
        return Map.of("sizeInTransaction", inside, "sizeAfterCommit", checkout.size());
    }

    /** Rolls back: the timeout is never stored. */
    @POST
    @Path("/refused")
    public Map<String, Object> refused(@PathParam("order") String order) {
        try {
            checkout.placeAndFail(order);
            throw new IllegalStateException("the transaction did not fail");
        } catch (IllegalStateException refused) {
            return Map.of("error", refused.getMessage(), "sizeAfterRollback", checkout.size());
        }
    }
}
