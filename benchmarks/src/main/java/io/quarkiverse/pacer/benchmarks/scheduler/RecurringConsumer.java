package io.quarkiverse.pacer.benchmarks.scheduler;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;

/**
 * The {@code @Delayed} consumer of the recurring-schedule row: each message is one tick of one schedule (its payload is
 * the schedule's number, its {@code dueAt()} the tick), recorded and nothing else. Concurrency as the other benchmark
 * queues ({@code bench.delayed.consumers}, applied through application.properties).
 */
@ApplicationScoped
public class RecurringConsumer {

    public static final String QUEUE = "bench-recurring";

    @Inject
    TickRecorder recorder;

    @Delayed(value = QUEUE, concurrency = 16)
    void tick(DelayedMessage<String> message) {
        recorder.ran(Integer.parseInt(message.payload()), message.dueAt());
    }
}
