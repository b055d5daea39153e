package io.quarkiverse.pacer.runtime.dev.ui;

import java.time.Instant;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;

import io.quarkiverse.pacer.delay.ReactiveRecurringSchedules;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringDeliveryState;
import io.quarkiverse.pacer.runtime.scheduler.JobSnapshot;
import io.quarkiverse.pacer.runtime.scheduler.PacerScheduler;
import io.quarkus.scheduler.Scheduler;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The Dev UI's JSON-RPC methods of the schedules page (dev mode only): the {@code PACER} jobs of this instance with
 * their state in Redis, and the recurring schedules of delay queues; pause and resume (on every instance) and run or
 * trigger now. The methods that wait for Redis return a {@code Uni}, or run on a worker thread (the Dev UI's default
 * for a plain return type) when they go through the blocking {@code Scheduler} API.
 */
public class PacerSchedulesJsonRpcService {

    static final int MAX_PAYLOAD_CHARS = 2000;

    private final Instance<Scheduler> schedulers;
    private final ReactiveRecurringSchedules recurring;
    private volatile PacerScheduler pacer;

    PacerSchedulesJsonRpcService(@Any Instance<Scheduler> schedulers, ReactiveRecurringSchedules recurring) {
        this.schedulers = schedulers;
        this.recurring = recurring;
    }

    /** The {@code PACER} scheduler, {@code null} without Quarkus's composite scheduler (then there is none). */
    private PacerScheduler pacer() {
        PacerScheduler found = pacer;
        if (found == null) {
            found = schedulers.stream().filter(PacerScheduler.class::isInstance).map(PacerScheduler.class::cast)
                    .findFirst().orElse(null);
            pacer = found;
        }
        return found;
    }

    /**
     * Whether the application has the {@code PACER} scheduler, and every {@code PACER} job of this instance
     * ({@code @Scheduled} and programmatic) with its state read from Redis now.
     */
    public Uni<JsonObject> getJobs() {
        PacerScheduler scheduler = pacer();
        if (scheduler == null) {
            return Uni.createFrom().item(new JsonObject().put("available", false).put("jobs", new JsonArray()));
        }
        return scheduler.snapshots().map(snapshots -> {
            JsonArray rows = new JsonArray();
            snapshots.forEach(snapshot -> rows.add(jobRow(snapshot)));
            return new JsonObject().put("available", true).put("started", scheduler.isStarted()).put("jobs", rows);
        });
    }

    private static JsonObject jobRow(JobSnapshot job) {
        JsonObject row = new JsonObject()
                .put("identity", job.id())
                .put("method", job.methodDescription())
                .put("programmatic", job.methodDescription() == null)
                .put("storedInRedis", job.storedInRedis())
                .put("everyMillis", job.everyMillis())
                .put("cron", job.cron())
                .put("zone", job.zone())
                .put("redisNow", millis(job.redisNow()))
                .put("nextFireTime", millis(job.nextFireTime()))
                .put("lastClaimedTick", millis(job.lastClaimedTick()))
                .put("paused", job.paused())
                .put("runningSince", millis(job.runningSince()))
                .put("runsHere", job.runsHere());
        JobSnapshot.Outcome outcome = job.lastOutcome();
        if (outcome != null) {
            row.put("lastOutcome", new JsonObject()
                    .put("result", outcome.result().name())
                    .put("at", millis(outcome.at()))
                    .put("scheduledFireTime", millis(outcome.scheduledFireTime()))
                    .put("byHand", outcome.byHand())
                    .put("message", outcome.message()));
        }
        return row;
    }

    private static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    /** Pauses a {@code PACER} job on every instance (stored in Redis). Runs on a worker thread: it waits for Redis. */
    public JsonObject pauseJob(String identity) {
        PacerScheduler scheduler = requireJob(identity);
        scheduler.pause(identity);
        return new JsonObject().put("identity", identity).put("paused", scheduler.isPaused(identity));
    }

    /** Resumes a paused {@code PACER} job on every instance. Runs on a worker thread: it waits for Redis. */
    public JsonObject resumeJob(String identity) {
        PacerScheduler scheduler = requireJob(identity);
        scheduler.resume(identity);
        return new JsonObject().put("identity", identity).put("paused", scheduler.isPaused(identity));
    }

    /**
     * Runs a {@code PACER} job's method (or task) once on this instance now, outside its ticks, paused or not; returns
     * once the run is started, its outcome shows in {@link #getJobs()}.
     */
    @NonBlocking
    public JsonObject runJobNow(String identity) {
        PacerScheduler scheduler = requireJob(identity);
        scheduler.runNow(identity);
        return new JsonObject().put("identity", identity).put("started", true);
    }

    private PacerScheduler requireJob(String identity) {
        PacerScheduler scheduler = pacer();
        if (scheduler == null || identity == null || scheduler.getScheduledJob(identity) == null) {
            throw new IllegalArgumentException("No PACER job " + identity + " on this instance");
        }
        return scheduler;
    }

    /** Every recurring schedule stored in Redis, sorted by id. */
    public Uni<JsonArray> getRecurringSchedules() {
        return recurring.list().map(states -> {
            JsonArray rows = new JsonArray();
            states.forEach(state -> rows.add(recurringRow(state)));
            return rows;
        });
    }

    private static JsonObject recurringRow(RecurringDeliveryState state) {
        RecurringDelivery delivery = state.delivery();
        Object payload = delivery.payload();
        String text = payload instanceof byte[] bytes ? bytes.length + " bytes" : String.valueOf(payload);
        return new JsonObject()
                .put("id", state.id())
                .put("queue", delivery.queue())
                .put("everyMillis", delivery.every() == null ? null : delivery.every().toMillis())
                .put("cron", delivery.cron())
                .put("zone", delivery.zone() == null ? null : delivery.zone().getId())
                .put("overdueGracePeriodMillis", delivery.overdueGracePeriod().map(d -> d.toMillis()).orElse(null))
                .put("nextFireTime", state.nextFireTime().toEpochMilli())
                .put("paused", state.paused())
                .put("payload", text.length() > MAX_PAYLOAD_CHARS ? text.substring(0, MAX_PAYLOAD_CHARS) : text)
                .put("truncated", text.length() > MAX_PAYLOAD_CHARS);
    }

    /** Pauses a recurring schedule on every instance. */
    public Uni<JsonObject> pauseRecurring(String id) {
        return Uni.createFrom().deferred(() -> recurring.pause(id))
                .map(found -> new JsonObject().put("id", id).put("found", found).put("paused", found));
    }

    /** Resumes a recurring schedule on every instance. */
    public Uni<JsonObject> resumeRecurring(String id) {
        return Uni.createFrom().deferred(() -> recurring.resume(id))
                .map(found -> new JsonObject().put("id", id).put("found", found).put("paused", false));
    }

    /** Schedules a recurring schedule's payload on its queue at once, once, off its grid. */
    public Uni<JsonObject> triggerRecurringNow(String id) {
        return Uni.createFrom().deferred(() -> recurring.triggerNow(id))
                .map(messageId -> new JsonObject().put("id", id).put("found", messageId != null)
                        .put("messageId", messageId));
    }
}
