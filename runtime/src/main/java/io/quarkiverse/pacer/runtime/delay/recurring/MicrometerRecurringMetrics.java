package io.quarkiverse.pacer.runtime.delay.recurring;

import java.util.EnumMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Micrometer meters of recurring schedules, all tagged with {@code queue} (the delay queue the schedules deliver to; a
 * tag per schedule would make one time series per customer) and counted by the instance that did the work:
 * {@code pacer.recurring.fires} (ticks fired), {@code pacer.recurring.takeovers} (fired ticks stored after their
 * lease expired), {@code pacer.recurring.skipped} (tag {@code reason} = overdue | dropped) and the timer
 * {@code pacer.recurring.lateness} (a tick's fire time to its firing). A queue's meters are created together, when
 * something first happens to one of its ticks here.
 */
@Singleton
public class MicrometerRecurringMetrics implements RecurringMetrics {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, QueueMeters> queues = new ConcurrentHashMap<>();

    MicrometerRecurringMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void fired(String queue, long latenessMillis) {
        QueueMeters meters = of(queue);
        meters.fires.increment();
        meters.lateness.record(Math.max(0, latenessMillis), TimeUnit.MILLISECONDS);
    }

    @Override
    public void takenOver(String queue) {
        of(queue).takeovers.increment();
    }

    @Override
    public void skipped(String queue, Skip reason, long ticks) {
        of(queue).skipped.get(reason).increment(ticks);
    }

    private QueueMeters of(String queue) {
        return queues.computeIfAbsent(queue, QueueMeters::new);
    }

    private final class QueueMeters {
        final Counter fires;
        final Counter takeovers;
        final EnumMap<Skip, Counter> skipped = new EnumMap<>(Skip.class);
        final Timer lateness;

        QueueMeters(String queue) {
            fires = Counter.builder("pacer.recurring.fires")
                    .description("Ticks of recurring schedules fired by this instance, per target delay queue")
                    .tag("queue", queue).register(registry);
            takeovers = Counter.builder("pacer.recurring.takeovers")
                    .description("Fired ticks of recurring schedules whose lease expired before their message was"
                            + " stored, taken over by this instance")
                    .tag("queue", queue).register(registry);
            for (Skip reason : Skip.values()) {
                skipped.put(reason, Counter.builder("pacer.recurring.skipped")
                        .description("Ticks of recurring schedules not stored in their delay queue, per reason")
                        .tag("queue", queue).tag("reason", reason.tag).register(registry));
            }
            lateness = Timer.builder("pacer.recurring.lateness")
                    .description("Time from a recurring tick's fire time to its firing (Redis time)")
                    .tag("queue", queue).register(registry);
        }
    }
}
