package io.quarkiverse.pacer.it.scheduling;

import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.scheduler.ScheduledExecution;

/**
 * The task of the programmatic PACER jobs the tests schedule through {@link SchedulingResource}: as the ten schedules
 * do, each run counts its tick in {@code it:sched:<job>} and its instance in {@code it:sched:instances}.
 */
@ApplicationScoped
public class ProgrammaticTick implements Consumer<ScheduledExecution> {

    @Inject
    RedisDataSource redis;

    @ConfigProperty(name = "pacer.it.instance", defaultValue = "unnamed")
    String instance;

    @Override
    public void accept(ScheduledExecution execution) {
        redis.hash(Long.class).hincrby("it:sched:" + execution.getTrigger().getId(),
                Long.toString(execution.getScheduledFireTime().toEpochMilli()), 1);
        redis.hash(Long.class).hincrby("it:sched:instances", instance, 1);
    }
}
