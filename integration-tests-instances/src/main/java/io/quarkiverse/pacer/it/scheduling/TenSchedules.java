package io.quarkiverse.pacer.it.scheduling;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;

/**
 * Ten schedules on the PACER scheduler, off unless {@code pacer.it.schedules.every} is set: each run counts its tick
 * (its scheduled fire time) in the HASH {@code it:sched:<job>}, and the instance that ran it in {@code it:sched:instances},
 * so the test reads how often each tick ran across all instances.
 */
@ApplicationScoped
public class TenSchedules {

    @Inject
    RedisDataSource redis;

    @ConfigProperty(name = "pacer.it.instance", defaultValue = "unnamed")
    String instance;

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-0", executeWith = "PACER")
    void tick0(ScheduledExecution execution) {
        record("tick-0", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-1", executeWith = "PACER")
    void tick1(ScheduledExecution execution) {
        record("tick-1", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-2", executeWith = "PACER")
    void tick2(ScheduledExecution execution) {
        record("tick-2", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-3", executeWith = "PACER")
    void tick3(ScheduledExecution execution) {
        record("tick-3", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-4", executeWith = "PACER")
    void tick4(ScheduledExecution execution) {
        record("tick-4", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-5", executeWith = "PACER")
    void tick5(ScheduledExecution execution) {
        record("tick-5", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-6", executeWith = "PACER")
    void tick6(ScheduledExecution execution) {
        record("tick-6", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-7", executeWith = "PACER")
    void tick7(ScheduledExecution execution) {
        record("tick-7", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-8", executeWith = "PACER")
    void tick8(ScheduledExecution execution) {
        record("tick-8", execution);
    }

    @Scheduled(every = "${pacer.it.schedules.every:off}", identity = "tick-9", executeWith = "PACER")
    void tick9(ScheduledExecution execution) {
        record("tick-9", execution);
    }

    private void record(String job, ScheduledExecution execution) {
        redis.hash(Long.class).hincrby("it:sched:" + job,
                Long.toString(execution.getScheduledFireTime().toEpochMilli()), 1);
        redis.hash(Long.class).hincrby("it:sched:instances", instance, 1);
    }
}
