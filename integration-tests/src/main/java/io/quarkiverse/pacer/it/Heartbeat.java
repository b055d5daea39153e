package io.quarkiverse.pacer.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * A job that runs every 2 seconds once across all the instances sharing the Redis: each run counts itself here and
 * records its tick in Redis, so {@code GET /heartbeat} shows how the ticks spread over the instances, each tick once.
 */
@ApplicationScoped
public class Heartbeat {

    /** The runs of every instance, and the last ticks with the instance that ran each; they expire after an hour. */
    static final String RUNS_KEY = "demo:heartbeat:runs";
    static final String TICKS_KEY = "demo:heartbeat:ticks";
    static final int TICKS_KEPT = 20;
    private static final String TTL_MILLIS = Long.toString(Duration.ofHours(1).toMillis());

    private final String instance = Long.toString(ProcessHandle.current().pid());
    private final AtomicLong runsHere = new AtomicLong();

    @Inject
    PacerRedis redis;

    @Scheduled(every = "2s", identity = "demo-heartbeat", executeWith = "PACER")
    Uni<Void> beat(ScheduledExecution execution) {
        runsHere.incrementAndGet();
        String tick = execution.getScheduledFireTime().toEpochMilli() + " " + instance;
        return send(Request.cmd(Command.INCR).arg(RUNS_KEY))
                .chain(() -> send(Request.cmd(Command.PEXPIRE).arg(RUNS_KEY).arg(TTL_MILLIS)))
                .chain(() -> send(Request.cmd(Command.LPUSH).arg(TICKS_KEY).arg(tick)))
                .chain(() -> send(Request.cmd(Command.LTRIM).arg(TICKS_KEY).arg(0).arg(TICKS_KEPT - 1)))
                .chain(() -> send(Request.cmd(Command.PEXPIRE).arg(TICKS_KEY).arg(TTL_MILLIS)));
    }

    private Uni<Void> send(Request request) {
        return redis.send(request).replaceWithVoid();
    }

    /** Tells this instance's runs apart in the ticks list: its process id. */
    String instance() {
        return instance;
    }

    long runsHere() {
        return runsHere.get();
    }

    Uni<Long> runsEverywhere() {
        return redis.send(Request.cmd(Command.GET).arg(RUNS_KEY))
                .map(reply -> reply == null ? 0L : reply.toLong());
    }

    /** The last ticks, newest first: {@code "<scheduled fire time, epoch millis> <instance>"}. */
    Uni<List<String>> lastTicks() {
        return redis.send(Request.cmd(Command.LRANGE).arg(TICKS_KEY).arg(0).arg(-1))
                .map(reply -> reply.stream().map(Object::toString).toList());
    }
}
