package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Concurrent {@code schedule} calls of one shard that queue behind each other on Pacer's connection are stored by
 * one script run, each with its own result: {@value #PRODUCERS} producers store every message once (fewer than one
 * script call per two messages) and each is delivered exactly once; of {@value #PRODUCERS} concurrent
 * {@code scheduleIfAbsent} calls with the same id exactly one stores it, and of calls with their own ids stored
 * together each tells whether its id was free; generated ids of concurrent {@code schedule} calls are all distinct.
 */
class DelayedScheduleBatchedTest {

    static final int PRODUCERS = 256;
    static final int PER_PRODUCER = 8;
    static final int MESSAGES = PRODUCERS * PER_PRODUCER;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final Map<Integer, AtomicInteger> deliveries = new ConcurrentHashMap<>();

        @Delayed("batched")
        void on(Integer n) {
            deliveries.computeIfAbsent(n, ignored -> new AtomicInteger()).incrementAndGet();
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    PacerRedis redis;

    @Test
    void concurrentSchedulesAreStoredTogetherAndDeliveredOnce() throws Exception {
        long callsBefore = scriptCalls();
        List<Integer> stored = concurrently(producer -> {
            for (int i = 0; i < PER_PRODUCER; i++) {
                int n = producer * PER_PRODUCER + i;
                queue.scheduleWithId("batched", "m-" + n, n, Duration.ofSeconds(1));
            }
            return PER_PRODUCER;
        });
        long scriptCalls = scriptCalls() - callsBefore;

        assertThat(stored.stream().mapToInt(Integer::intValue).sum()).isEqualTo(MESSAGES);
        // The consumer's claims run meanwhile too: they count against the ratio.
        assertThat((double) scriptCalls / MESSAGES).as("script calls per schedule (%d calls)", scriptCalls)
                .isLessThan(0.5);
        await().atMost(Duration.ofSeconds(60)).until(() -> consumer.deliveries.size() == MESSAGES);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.size("batched") == 0);
        assertThat(consumer.deliveries.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
    }

    @Test
    void ofConcurrentIfAbsentCallsWithOneIdExactlyOneStores() throws Exception {
        List<Integer> stored = concurrently(producer -> queue.scheduleIfAbsent("batched", "same-id", -1,
                Duration.ofHours(1)) ? 1 : 0);

        assertThat(stored.stream().mapToInt(Integer::intValue).sum()).isEqualTo(1);
        assertThat(queue.cancel("batched", "same-id")).isTrue();
    }

    @Test
    void generatedIdsOfConcurrentSchedulesAreAllDistinctAndEachMessageIsStored() throws Exception {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        List<Integer> scheduled = concurrently(producer -> {
            for (int i = 0; i < PER_PRODUCER; i++) {
                ids.add(queue.schedule("batched-ids", -1, Duration.ofHours(1)));
            }
            return PER_PRODUCER;
        });

        assertThat(scheduled.stream().mapToInt(Integer::intValue).sum()).isEqualTo(MESSAGES);
        assertThat(ids).hasSize(MESSAGES);
        assertThat(queue.size("batched-ids")).isEqualTo(MESSAGES);
        for (String id : ids) {
            assertThat(queue.cancel("batched-ids", id)).as(id).isTrue();
        }
        assertThat(queue.size("batched-ids")).isZero();
    }

    @Test
    void concurrentIfAbsentCallsWithIdsStoredTogetherEachTellWhetherTheirIdWasFree() throws Exception {
        // Every other id is taken before: in each batch script run some calls store and some find their id present.
        for (int n = 0; n < MESSAGES; n += 2) {
            assertThat(queue.scheduleIfAbsent("batched-absent", "a-" + n, n, Duration.ofHours(1))).isTrue();
        }
        long callsBefore = scriptCalls();
        Map<Integer, Boolean> results = new ConcurrentHashMap<>();
        concurrently(producer -> {
            for (int i = 0; i < PER_PRODUCER; i++) {
                int n = producer * PER_PRODUCER + i;
                results.put(n, queue.scheduleIfAbsent("batched-absent", "a-" + n, -n, Duration.ofHours(1)));
            }
            return PER_PRODUCER;
        });
        long scriptCalls = scriptCalls() - callsBefore;

        assertThat(results).hasSize(MESSAGES);
        results.forEach((n, stored) -> assertThat(stored).as("stored a-%d", n).isEqualTo(n % 2 == 1));
        assertThat((double) scriptCalls / MESSAGES).as("script calls per schedule (%d calls)", scriptCalls)
                .isLessThan(0.5);
        assertThat(queue.size("batched-absent")).isEqualTo(MESSAGES);
        for (int n = 0; n < MESSAGES; n++) {
            assertThat(queue.cancel("batched-absent", "a-" + n)).as("a-%d", n).isTrue();
        }
    }

    private long scriptCalls() {
        return RedisInfo.calls(redis, "evalsha") + RedisInfo.calls(redis, "eval");
    }

    /** Runs {@code producer(index)} on {@value #PRODUCERS} threads released together; their results. */
    private static List<Integer> concurrently(Producer producer) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int index = p;
                results.add(pool.submit((Callable<Integer>) () -> {
                    go.await();
                    return producer.run(index);
                }));
            }
            go.countDown();
            List<Integer> values = new ArrayList<>();
            for (Future<Integer> result : results) {
                values.add(result.get(60, TimeUnit.SECONDS));
            }
            return values;
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    interface Producer {
        int run(int index) throws Exception;
    }
}
