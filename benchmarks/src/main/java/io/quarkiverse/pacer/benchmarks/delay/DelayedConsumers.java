package io.quarkiverse.pacer.benchmarks.delay;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;

/**
 * The {@code @Delayed} consumers under test: they only record the delivery (no-op work), so the figures are Pacer's.
 * Concurrency matches the Redisson consumer threads ({@code bench.delayed.consumers}, applied through
 * {@code quarkus.pacer.delayed."<queue>".concurrency}).
 */
@ApplicationScoped
public class DelayedConsumers {

    public static final String SCHEDULE_QUEUE = "bench-schedule";
    /** Scheduled to with {@code durability=replicas} (application.properties), for the durability rows. */
    public static final String DURABLE_SCHEDULE_QUEUE = "bench-schedule-replicas";
    public static final String E2E_QUEUE = "bench-e2e";
    public static final String LATENESS_QUEUE = "bench-lateness";
    public static final String STORM_QUEUE = "bench-storm";

    @Inject
    DeliveryRecorder recorder;

    @Delayed(value = SCHEDULE_QUEUE, concurrency = 16)
    void scheduled(String payload) {
        // never due during a run: the schedule scenario measures producers only
    }

    @Delayed(value = DURABLE_SCHEDULE_QUEUE, concurrency = 16)
    void scheduledDurably(String payload) {
        // never due during a run, as above
    }

    @Delayed(value = E2E_QUEUE, concurrency = 16)
    void endToEnd(DelayedMessage<String> message) {
        recorder.delivered(message.dueAt());
    }

    @Delayed(value = LATENESS_QUEUE, concurrency = 16)
    void lateness(DelayedMessage<String> message) {
        recorder.delivered(message.dueAt());
    }

    @Delayed(value = STORM_QUEUE, concurrency = 16)
    void storm(DelayedMessage<String> message) {
        recorder.delivered(message.dueAt());
    }
}
