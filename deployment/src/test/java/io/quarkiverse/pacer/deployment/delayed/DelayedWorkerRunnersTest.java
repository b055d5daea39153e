package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Context;

/**
 * Blocking handlers share a few worker tasks that run them one after another while they are fast, yet a queue still
 * runs {@code concurrency} handlers at once when they block, and a handler that turns slow after thousands of fast ones
 * does not hold up the messages behind it.
 */
class DelayedWorkerRunnersTest {

    private static final int FAST = 2_000;
    private static final int CONCURRENCY = 4;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class));

    @Singleton
    static class Handlers {
        final Set<String> done = ConcurrentHashMap.newKeySet();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        final AtomicInteger notOnWorker = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);

        @Delayed(value = "runners", concurrency = CONCURRENCY)
        void on(DelayedMessage<String> message) throws InterruptedException {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            try {
                if (!Context.isOnWorkerThread() || Context.isOnEventLoopThread()) {
                    notOnWorker.incrementAndGet();
                }
                if (message.payload().equals("block")) {
                    assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                }
                done.add(message.id());
            } finally {
                running.decrementAndGet();
            }
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Handlers handlers;

    @Test
    void blockingHandlersRunConcurrentlyAndASlowOneHoldsUpNoOther() {
        // Thousands of fast handlers: they run back to back on few worker tasks.
        for (int i = 0; i < FAST; i++) {
            queue.scheduleWithId("runners", "fast-" + i, "fast", Duration.ZERO);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.done.size() == FAST);
        assertThat(handlers.maxRunning.get()).isBetween(1, CONCURRENCY);

        // One turns slow: the messages behind it still run, on workers of their own.
        queue.scheduleWithId("runners", "slow-0", "block", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.running.get() == 1);
        for (int i = 0; i < 3; i++) {
            queue.scheduleWithId("runners", "after-slow-" + i, "fast", Duration.ZERO);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.done.size() == FAST + 3);
        assertThat(handlers.done).doesNotContain("slow-0");

        // More blocking ones: the queue runs its concurrency at once, never more.
        for (int i = 1; i < 2 * CONCURRENCY; i++) {
            queue.scheduleWithId("runners", "slow-" + i, "block", Duration.ZERO);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.running.get() == CONCURRENCY);
        handlers.release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.done.size() == FAST + 3 + 2 * CONCURRENCY);
        assertThat(handlers.maxRunning.get()).isEqualTo(CONCURRENCY);
        assertThat(handlers.notOnWorker.get()).isZero();
        assertThat(queue.size("runners")).isZero();
    }
}
