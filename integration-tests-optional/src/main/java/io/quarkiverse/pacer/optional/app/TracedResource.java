package io.quarkiverse.pacer.optional.app;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;

/** A throttled endpoint, whose decisions are events of the request's span, and the spans exported so far. */
@Path("/traced")
public class TracedResource {

    @Inject
    SpanLog spans;

    @GET
    @Path("/search")
    @Throttled(name = "app-search", limit = 1, window = "1h")
    public String search(@QueryParam("tenant") @ThrottleKey String tenant) {
        return "hits for " + tenant;
    }

    @GET
    @Path("/spans")
    @Produces(MediaType.APPLICATION_JSON)
    public List<Map<String, Object>> spans() {
        return spans.spans();
    }
}
