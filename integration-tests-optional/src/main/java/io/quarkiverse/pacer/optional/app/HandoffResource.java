package io.quarkiverse.pacer.optional.app;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.pacer.delay.DelayedQueue;

/** Schedules messages on the {@code app-handoff} queue, which forwards them to a messaging channel when due. */
@Path("/handoff")
public class HandoffResource {

    static final String QUEUE = "app-handoff";

    @Inject
    DelayedQueue queue;

    @Inject
    Broker broker;

    @POST
    @Path("/{id}")
    @Produces(MediaType.TEXT_PLAIN)
    public String schedule(@PathParam("id") String id, @QueryParam("payload") String payload) {
        return queue.schedule(QUEUE, id, payload, Duration.ofMillis(100));
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<String> received() {
        return broker.received();
    }

    @GET
    @Path("/pending")
    @Produces(MediaType.TEXT_PLAIN)
    public long pending() {
        return queue.size(QUEUE);
    }
}
