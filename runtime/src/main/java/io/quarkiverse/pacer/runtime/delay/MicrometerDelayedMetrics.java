package io.quarkiverse.pacer.runtime.delay;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumerStats;
import io.quarkiverse.pacer.runtime.delay.inspection.QueueDepth;

/**
 * Micrometer meters of delay queues, all tagged with {@code queue}: {@code pacer.delayed.scheduled},
 * {@code pacer.delayed.delivered}, {@code pacer.delayed.failed}, {@code pacer.delayed.retried},
 * {@code pacer.delayed.dead.lettered}, {@code pacer.delayed.throttled} (rate-limited handlers, rescheduled without an
 * attempt), {@code pacer.delayed.redelivered} (lease expiries), the timer
 * {@code pacer.delayed.lateness} (due time to claim), the gauge {@code pacer.delayed.depth} (tag {@code state}:
 * {@code scheduled} (due later), {@code due} (overdue: due and not yet claimed), {@code in-flight}, {@code dead}), the
 * time gauge {@code pacer.delayed.oldest.overdue} (how long the oldest overdue message has been due; 0 when none) and
 * the gauge {@code pacer.delayed.unconsumed} (messages of a queue found in Redis that no {@code @Delayed} method of
 * this application consumes); with schedule on commit, the gauge {@code pacer.delayed.after-commit.pending}
 * (operations of committed transactions not yet stored in Redis).
 */
@Singleton
public class MicrometerDelayedMetrics implements DelayedMetrics {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, Counter> scheduled = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Timer> lateness = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong[]> depths = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong> unconsumed = new ConcurrentHashMap<>();
    /** Micrometer holds function-counter state weakly: the suppliers must stay reachable from here. */
    private final ConcurrentHashMap<String, Supplier<DelayedConsumerStats>> consumers = new ConcurrentHashMap<>();
    /** Micrometer holds the gauge's state weakly: kept reachable from here. */
    private volatile IntSupplier afterCommitPending;

    MicrometerDelayedMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void scheduled(String queue) {
        scheduled(queue, 1);
    }

    @Override
    public void scheduled(String queue, int count) {
        scheduled.computeIfAbsent(queue, q -> Counter.builder("pacer.delayed.scheduled")
                .description("Messages scheduled by this instance").tag("queue", q).register(registry)).increment(count);
    }

    @Override
    public void afterCommitPending(IntSupplier pending) {
        afterCommitPending = pending;
        Gauge.builder("pacer.delayed.after-commit.pending", pending, IntSupplier::getAsInt)
                .description("Operations of committed transactions (schedule on commit) not yet stored in Redis")
                .register(registry);
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
    public void depth(QueueDepth depth) {
        AtomicLong[] values = depths.computeIfAbsent(depth.queue(), q -> {
            AtomicLong[] created = { new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong(),
                    new AtomicLong() };
            String[] states = { "scheduled", "due", "in-flight", "dead" };
            for (int i = 0; i < states.length; i++) {
                Gauge.builder("pacer.delayed.depth", created[i], AtomicLong::get)
                        .description("Messages of the queue in each state (due: overdue, not yet claimed)")
                        .tag("queue", q).tag("state", states[i])
                        .register(registry);
            }
            TimeGauge.builder("pacer.delayed.oldest.overdue", created[4], TimeUnit.MILLISECONDS, AtomicLong::get)
                    .description("How long the oldest overdue message of the queue has been due (0 when none)")
                    .tag("queue", q)
                    .register(registry);
            return created;
        });
        values[0].set(depth.scheduled());
        values[1].set(depth.overdue());
        values[2].set(depth.inFlight());
        values[3].set(depth.dead());
        values[4].set(Math.max(0, depth.oldestOverdueMillis()));
    }

    @Override
    public void unconsumed(String queue, QueueDepth depth) {
        AtomicLong value = unconsumed.computeIfAbsent(queue, q -> {
            AtomicLong created = new AtomicLong();
            Gauge.builder("pacer.delayed.unconsumed", created, AtomicLong::get)
                    .description("Messages of a queue found in Redis that no @Delayed method of this application"
                            + " consumes (a typo in a queue name?)")
                    .tag("queue", q)
                    .register(registry);
            return created;
        });
        value.set(depth == null ? 0 : depth.total());
    }
}
