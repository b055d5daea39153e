package io.quarkiverse.pacer.it.failover;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;

/**
 * What the two-instance Cluster failover test drives over HTTP: schedules with ids it chooses on the queue
 * {@value #QUEUE}, the ids this instance consumed with their time of delivery, a throttled probe that admits every call,
 * a method limited to {@value #EXACT_LIMIT} per day and key, and one limited to one call per day and key (a second call
 * admitted means the first was decided without Redis).
 */
@Path("/failover")
public class FailoverResource {

    static final String QUEUE = "failover";
    static final Duration DELAY = Duration.ofMillis(500);
    static final int EXACT_LIMIT = 5;
    /** The response header with the duration of the {@code schedule} call in the application, in microseconds. */
    static final String TOOK_MICROS = "Schedule-Took-Micros";

    private static final Map<String, Long> RECEIVED_AT = new ConcurrentHashMap<>();

    @Inject
    DelayedQueue queue;

    /**
     * 204 once {@code schedule} returned (acknowledged), 503 with the error when it threw; either way the header
     * {@value #TOOK_MICROS} says how long {@code schedule} took, without the HTTP exchange around it.
     */
    @POST
    @Path("/schedule/{id}")
    public Response schedule(@PathParam("id") String id) {
        long start = System.nanoTime();
        try {
            queue.scheduleWithId(QUEUE, id, id, DELAY);
            return Response.noContent().header(TOOK_MICROS, micros(start)).build();
        } catch (RuntimeException e) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).header(TOOK_MICROS, micros(start))
                    .entity(e.toString()).build();
        }
    }

    private static long micros(long startNanos) {
        return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNanos);
    }

    @Delayed(value = QUEUE, concurrency = 8)
    void consume(String id) {
        RECEIVED_AT.putIfAbsent(id, System.currentTimeMillis());
    }

    /** Every id this instance consumed, one {@code id time} line each (epoch ms). */
    @GET
    @Path("/received")
    public String received() {
        StringBuilder lines = new StringBuilder();
        RECEIVED_AT.forEach((id, at) -> lines.append(id).append(' ').append(at).append('\n'));
        return lines.toString();
    }

    @POST
    @Path("/probe/{key}")
    @Throttled(name = "probe", limit = 1_000_000, window = "1m")
    public String probe(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }

    @POST
    @Path("/exact/{key}")
    @Throttled(name = "exact", limit = EXACT_LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
    public String exact(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }

    @POST
    @Path("/once/{key}")
    @Throttled(name = "once", limit = 1, window = "1d")
    public String once(@PathParam("key") @ThrottleKey String key) {
        return "ok";
    }
}
