package io.quarkiverse.pacer.it.scheduling;

import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.scheduler.Scheduler;

/**
 * What the two-instance scheduling tests drive over HTTP: the counts per tick, pause and resume of a job, and
 * programmatic jobs.
 */
@Path("/scheduling")
public class SchedulingResource {

    @Inject
    Scheduler scheduler;

    @Inject
    RedisDataSource redis;

    /** One line per tick, in order: its scheduled fire time (epoch millis), a space, its runs over all instances. */
    @GET
    @Path("/ticks/{job}")
    @Produces(MediaType.TEXT_PLAIN)
    public String ticks(@PathParam("job") String job) {
        return lines(redis.hash(Long.class).hgetall("it:sched:" + job));
    }

    /** One line per instance: its name, a space, the runs it made over all jobs. */
    @GET
    @Path("/instances")
    @Produces(MediaType.TEXT_PLAIN)
    public String instances() {
        return lines(redis.hash(Long.class).hgetall("it:sched:instances"));
    }

    private static String lines(Map<String, Long> counts) {
        StringBuilder lines = new StringBuilder();
        new TreeMap<>(counts).forEach((name, count) -> lines.append(name).append(' ').append(count).append('\n'));
        return lines.toString();
    }

    @POST
    @Path("/pause/{job}")
    public void pause(@PathParam("job") String job) {
        scheduler.pause(job);
    }

    @POST
    @Path("/resume/{job}")
    public void resume(@PathParam("job") String job) {
        scheduler.resume(job);
    }

    @GET
    @Path("/paused/{job}")
    public boolean paused(@PathParam("job") String job) {
        return scheduler.isPaused(job);
    }

    /** Schedules a programmatic PACER job whose task is a class: it is stored in Redis. */
    @POST
    @Path("/programmatic/{job}")
    public void schedule(@PathParam("job") String job, @QueryParam("every") String every) {
        scheduler.newJob(job).setInterval(every).setExecuteWith("PACER").setTask(ProgrammaticTick.class).schedule();
    }

    /** Whether this instance runs the job. */
    @GET
    @Path("/programmatic/{job}")
    public boolean scheduled(@PathParam("job") String job) {
        return scheduler.getScheduledJob(job) != null;
    }

    /** Unschedules the job, on every instance: whether this instance had it. */
    @DELETE
    @Path("/programmatic/{job}")
    public boolean unschedule(@PathParam("job") String job) {
        return scheduler.unscheduleJob(job) != null;
    }
}
