package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@value #PRODUCERS} producers call the blocking {@code schedule} at the same moment, with Quarkus's default Redis
 * client pool (6 connections, 24 waiting): every call succeeds and every message is delivered.
 */
class DelayedConcurrentProducersTest {

    static final int PRODUCERS = 256;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class));

    @Singleton
    static class Consumer {
        final Set<Integer> received = ConcurrentHashMap.newKeySet();

        @Delayed("producers")
        void on(Integer n) {
            received.add(n);
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Test
    void everyScheduleSucceedsAndEveryMessageArrives() throws Exception {
        ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<String>> ids = new ArrayList<>();
            for (int i = 0; i < PRODUCERS; i++) {
                int n = i;
                ids.add(producers.submit(() -> {
                    go.await();
                    return queue.schedule("producers", n, Duration.ofMillis(100));
                }));
            }
            go.countDown();
            Set<String> distinct = ConcurrentHashMap.newKeySet();
            for (Future<String> id : ids) {
                distinct.add(id.get(60, TimeUnit.SECONDS));
            }
            assertThat(distinct).hasSize(PRODUCERS);
        } finally {
            producers.shutdownNow();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> consumer.received.size() == PRODUCERS);
        assertThat(consumer.received).hasSize(PRODUCERS);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.size("producers") == 0);
    }
}
