package io.quarkiverse.pacer.runtime.delay;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Micrometer meters of delay queues, all tagged with {@code queue}: {@code pacer.delayed.scheduled},
 * {@code pacer.delayed.delivered}, {@code pacer.delayed.failed}, {@code pacer.delayed.retried},
 * {@code pacer.delayed.dead.lettered}, {@code pacer.delayed.throttled} (rate-limited handlers, rescheduled without an
 * attempt), {@code pacer.delayed.redelivered} (lease expiries), the timer
 * {@code pacer.delayed.lateness} (due time to claim) and the gauge {@code pacer.delayed.depth} (tag {@code state}:
 * {@code due}, {@code in-flight}, {@code dead}).
 */
@Singleton
public class MicrometerDelayedMetrics implements DelayedMetrics {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, Counter> scheduled = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Timer> lateness = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong[]> depths = new ConcurrentHashMap<>();
    /** Micrometer holds function-counter state weakly: the suppliers must stay reachable from here. */
    private final ConcurrentHashMap<String, Supplier<DelayedConsumerStats>> consumers = new ConcurrentHashMap<>();

    MicrometerDelayedMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void scheduled(String queue) {
        scheduled.computeIfAbsent(queue, q -> Counter.builder("pacer.delayed.scheduled")
                .description("Messages scheduled by this instance").tag("queue", q).register(registry)).increment();
    }

    @Override
    public void consuming(String queue, Supplier<DelayedConsumerStats> stats) {
        consumers.put(queue, stats);
        counter("pacer.delayed.delivered", "Messages handled successfully", queue, stats, DelayedConsumerStats::delivered);
        counter("pacer.delayed.failed", "Handler invocations that failed", queue, stats, DelayedConsumerStats::failed);
        counter("pacer.delayed.retried", "Failed messages scheduled for a retry", queue, stats,
                DelayedConsumerStats::retried);
        counter("pacer.delayed.dead.lettered", "Messages moved to the dead letters", queue, stats,
                DelayedConsumerStats::deadLettered);
        counter("pacer.delayed.throttled", "Handler invocations rejected by @Throttled, rescheduled without an attempt",
                queue, stats, DelayedConsumerStats::throttled);
        counter("pacer.delayed.redelivered", "Messages taken back from consumers whose lease expired", queue, stats,
                DelayedConsumerStats::reclaimed);
    }

    private void counter(String name, String description, String queue, Supplier<DelayedConsumerStats> stats,
            java.util.function.ToLongFunction<DelayedConsumerStats> value) {
        ToDoubleFunction<Supplier<DelayedConsumerStats>> read = s -> value.applyAsLong(s.get());
        FunctionCounter.builder(name, stats, read).description(description).tag("queue", queue).register(registry);
    }

    @Override
    public void lateness(String queue, long millis) {
        lateness.computeIfAbsent(queue, q -> Timer.builder("pacer.delayed.lateness")
                .description("Time from a message's due time to its claim").tag("queue", q).register(registry))
                .record(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void depth(String queue, long due, long inFlight, long dead) {
        AtomicLong[] values = depths.computeIfAbsent(queue, q -> {
            AtomicLong[] created = { new AtomicLong(), new AtomicLong(), new AtomicLong() };
            String[] states = { "due", "in-flight", "dead" };
            for (int i = 0; i < states.length; i++) {
                Gauge.builder("pacer.delayed.depth", created[i], AtomicLong::get)
                        .description("Messages of the queue in each state").tag("queue", q).tag("state", states[i])
                        .register(registry);
            }
            return created;
        });
        values[0].set(due);
        values[1].set(inFlight);
        values[2].set(dead);
    }
}
