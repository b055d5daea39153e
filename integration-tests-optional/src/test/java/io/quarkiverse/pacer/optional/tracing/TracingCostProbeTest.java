package io.quarkiverse.pacer.optional.tracing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.tracing.OpenTelemetryDelayedTracing;
import io.quarkus.test.QuarkusUnitTest;

/**
 * What tracing costs: rounds of 16,000 messages (16 producer threads calling {@code schedule}, due at once, a consumer
 * of concurrency 16) alternate Pacer's tracing on and off in one application (sampler always on, in-memory exporter),
 * and print the schedule and end-to-end rates. Not a pass/fail test (timing on a shared machine is noise): it runs only
 * with {@code -Dbench.tracing=true}, see the Performance page.
 */
@EnabledIfSystemProperty(named = "bench.tracing", matches = "true")
class TracingCostProbeTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(InMemorySpans.class, Consumer.class))
            .overrideConfigKey("quarkus.pacer.delayed.\"probe\".concurrency", "16");

    @Singleton
    static class Consumer {
        final AtomicInteger delivered = new AtomicInteger();

        @Delayed("probe")
        void on(String payload) {
            delivered.incrementAndGet();
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    InMemorySpans spans;

    @Inject
    OpenTelemetryDelayedTracing tracing;

    @Test
    void measure() throws Exception {
        run(4000, "warm-up on");
        tracing.tracing(false);
        run(4000, "warm-up off");
        for (int round = 1; round <= 4; round++) {
            tracing.tracing(round % 2 == 0);
            run(16000, "round " + round + (round % 2 == 0 ? " on " : " off"));
            tracing.tracing(round % 2 != 0);
            run(16000, "round " + round + (round % 2 != 0 ? " on " : " off"));
        }
    }

    private void run(int total, String label) throws Exception {
        spans.reset();
        int start = consumer.delivered.get();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        long t0 = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            futures.add(pool.submit(() -> {
                for (int i = 0; i < total / 16; i++) {
                    queue.schedule("probe", "payload", Duration.ZERO);
                }
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        long t1 = System.nanoTime();
        await().atMost(Duration.ofMinutes(3)).until(() -> consumer.delivered.get() - start >= total);
        long t2 = System.nanoTime();
        pool.shutdown();
        System.out.printf("TRACING COST %s: schedule %.0f msg/s, end to end %.0f msg/s%n", label, total / ((t1 - t0) / 1e9),
                total / ((t2 - t0) / 1e9));
    }
}
