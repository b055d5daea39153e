package io.quarkiverse.pacer.it;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.smallrye.mutiny.Uni;

/** How many heartbeat ticks this instance ran, how many ran in total, and the last ticks with their instance. */
@Path("/heartbeat")
public class HeartbeatResource {

    @Inject
    Heartbeat heartbeat;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> status() {
        return Uni.combine().all().unis(heartbeat.runsEverywhere(), heartbeat.lastTicks()).asTuple().map(read -> {
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("instance", heartbeat.instance());
            status.put("runsHere", heartbeat.runsHere());
            status.put("runsEverywhere", read.getItem1());
            status.put("lastTicks", read.getItem2());
            return status;
        });
    }
}
