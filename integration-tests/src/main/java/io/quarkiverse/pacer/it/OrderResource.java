package io.quarkiverse.pacer.it;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.pacer.delay.DelayedQueueName;
import io.quarkiverse.pacer.delay.TypedDelayedQueue;

/**
 * The order-timeout flow: placing an order schedules its expiry on the {@code order-timeout} delay queue, paying
 * cancels it, and {@link OrderTimeouts} expires orders whose timeout fires.
 */
@Path("/orders")
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {

    static final String QUEUE = "order-timeout";

    @Inject
    Orders orders;

    /** The typed handle: the build checks that {@link OrderTimeouts#expire} takes an {@link OrderRef}. */
    @Inject
    @DelayedQueueName(QUEUE)
    TypedDelayedQueue<OrderRef> timeouts;

    @POST
    @Path("/{id}")
    public Map<String, Object> place(@PathParam("id") long id,
            @QueryParam("timeoutMs") @DefaultValue("1800000") long timeoutMs) {
        orders.place(id);
        String messageId = timeouts.scheduleWithId("order-" + id, new OrderRef(id), Duration.ofMillis(timeoutMs));
        return Map.of("id", id, "status", orders.status(id), "timeout", messageId);
    }

    @POST
    @Path("/{id}/pay")
    public Response pay(@PathParam("id") long id) {
        if (!orders.pay(id)) {
            return Response.status(Response.Status.CONFLICT).entity(Map.of("id", id, "status", orders.status(id)))
                    .build();
        }
        timeouts.cancel("order-" + id);
        return Response.ok(Map.of("id", id, "status", orders.status(id))).build();
    }

    /** Demo and tests: fires the order's timeout now instead of waiting for it ({@code TypedDelayedQueue#deliverNow}). */
    @POST
    @Path("/{id}/timeout/now")
    public Response timeoutNow(@PathParam("id") long id) {
        return timeouts.deliverNow("order-" + id)
                ? Response.accepted(Map.of("id", id, "timeout", "order-" + id, "delivering", true)).build()
                : Response.status(Response.Status.NOT_FOUND)
                        .entity(Map.of("id", id, "timeout", "order-" + id, "delivering", false)).build();
    }

    @GET
    @Path("/{id}")
    public Response status(@PathParam("id") long id) {
        Orders.Status status = orders.status(id);
        return status == null ? Response.status(Response.Status.NOT_FOUND).build()
                : Response.ok(Map.of("id", id, "status", status)).build();
    }

    @GET
    @Path("/timeouts/pending")
    public Map<String, Object> pendingTimeouts() {
        return Map.of("queue", QUEUE, "size", timeouts.size());
    }
}
