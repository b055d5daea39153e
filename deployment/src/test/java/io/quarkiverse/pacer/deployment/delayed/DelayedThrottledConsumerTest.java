package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumerStats;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A {@code @Delayed} consumer that is also {@code @Throttled} (N calls per second): 3N messages due at once are all
 * delivered on their first attempt (with {@code maxAttempts = 1}, a counted rejection would dead-letter them), none is
 * dead-lettered, and they drain at the allowed rate: at most N per window, over at least three windows.
 */
class DelayedThrottledConsumerTest {

    static final int N = 4;
    static final String QUEUE = "partner-calls";
    /** The longest a handler is taken to start after its admission, on a loaded machine. */
    static final long HANDOFF_MILLIS = 250;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class));

    @Singleton
    static class Consumer {
        /** Message id to the attempt it was handled at and when (epoch millis). */
        final Map<String, long[]> handled = new ConcurrentHashMap<>();

        @Delayed(value = QUEUE, concurrency = 3, maxAttempts = 1)
        @Throttled(name = "partner-api", limit = N, window = "1s", algorithm = Algorithm.FIXED_WINDOW)
        void call(DelayedMessage<String> message) {
            handled.put(message.id(), new long[] { message.attempt(), System.currentTimeMillis() });
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    DelayedConsumers consumers;

    @Test
    void burstDrainsAtTheAllowedRateWithoutConsumingAttempts() {
        for (int i = 0; i < 3 * N; i++) {
            queue.scheduleWithId(QUEUE, "m" + i, "payload " + i, Duration.ZERO);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.handled.size() == 3 * N);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size(QUEUE) == 0);

        assertThat(queue.deadLetterCount(QUEUE)).isZero();
        assertThat(consumer.handled.values()).allSatisfy(entry -> assertThat(entry[0]).isEqualTo(1));
        // FIXED_WINDOW windows are aligned to whole seconds of (Redis, here same-host) time.
        Map<Long, Integer> perWindow = admissionWindows(consumer.handled.values().stream().mapToLong(entry -> entry[1])
                .sorted().toArray());
        assertThat(perWindow.values()).allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(N));
        assertThat(perWindow).hasSizeGreaterThanOrEqualTo(3);

        DelayedConsumerStats stats = consumers.stats(QUEUE);
        assertThat(stats.delivered()).isEqualTo(3 * N);
        assertThat(stats.throttled()).isPositive();
        assertThat(stats.failed()).isZero();
        assertThat(stats.retried()).isZero();
        assertThat(stats.deadLettered()).isZero();
    }

    /**
     * The calls per window of admission. A call is admitted on the event loop and its blocking handler starts on a
     * worker thread a moment later, so a handler that started up to {@link #HANDOFF_MILLIS} into a window may have been
     * admitted in the window before: it is counted there while that window has fewer than N (handlers in the order
     * they started). Without the throttle the twelve start within milliseconds, in one or two windows: more than N in one.
     */
    private static Map<Long, Integer> admissionWindows(long[] startedMillis) {
        Map<Long, Integer> perWindow = new TreeMap<>();
        for (long started : startedMillis) {
            long window = started / 1000;
            long earliest = (started - HANDOFF_MILLIS) / 1000;
            if (earliest < window && perWindow.getOrDefault(earliest, 0) < N) {
                window = earliest;
            }
            perWindow.merge(window, 1, Integer::sum);
        }
        return perWindow;
    }
}
