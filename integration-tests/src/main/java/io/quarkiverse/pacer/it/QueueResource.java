package io.quarkiverse.pacer.it;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.pacer.delay.DelayedQueue;

/**
 * Demo: schedules an order's timeout on any queue, and cancels it. A queue that no {@code @Delayed} method consumes
 * (a typo such as {@code PUT /queues/order-timeuot/orders/7}) keeps its messages, and the
 * {@code pacer.delayed.unconsumed} gauge shows how many.
 */
@Path("/queues/{queue}/orders/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    @Inject
    DelayedQueue queue;

    @PUT
    public Map<String, Object> schedule(@PathParam("queue") String name, @PathParam("id") long id,
            @QueryParam("delayMs") @DefaultValue("3600000") long delayMs) {
        String messageId = queue.scheduleWithId(name, "order-" + id, new OrderRef(id), Duration.ofMillis(delayMs));
        return Map.of("queue", name, "id", messageId);
    }

    @DELETE
    public Response cancel(@PathParam("queue") String name, @PathParam("id") long id) {
        return queue.cancel(name, "order-" + id) ? Response.noContent().build()
                : Response.status(Response.Status.NOT_FOUND).build();
    }
}
