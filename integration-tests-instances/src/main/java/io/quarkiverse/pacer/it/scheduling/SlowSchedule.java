package io.quarkiverse.pacer.it.scheduling;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;

/**
 * A PACER schedule whose runs take longer than its period, off unless {@code pacer.it.slow.every} is set: each run counts
 * its tick in the HASH {@code it:sched:slow} when it starts, and in {@code it:sched:slow-started-<instance>} and, when it
 * ends, {@code it:sched:slow-ended-<instance>}, so the test tells the runs an instance killed mid-run never ended.
 */
@ApplicationScoped
public class SlowSchedule {

    /** How long a run takes. */
    static final long RUN_MILLIS = 3_000;

    @Inject
    RedisDataSource redis;

    @ConfigProperty(name = "pacer.it.instance", defaultValue = "unnamed")
    String instance;

    @Scheduled(every = "${pacer.it.slow.every:off}", identity = "slow", executeWith = "PACER")
    void run(ScheduledExecution execution) throws InterruptedException {
        String tick = Long.toString(execution.getScheduledFireTime().toEpochMilli());
        redis.hash(Long.class).hincrby("it:sched:slow", tick, 1);
        redis.hash(Long.class).hincrby("it:sched:slow-started-" + instance, tick, 1);
        Thread.sleep(RUN_MILLIS);
        redis.hash(Long.class).hincrby("it:sched:slow-ended-" + instance, tick, 1);
    }
}
