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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisSubscription;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Response;

/**
 * Concurrent {@code schedule} calls of one shard that queue behind each other on Pacer's connection are stored by
 * one script run, each with its own result: {@value #PRODUCERS} producers store every message once (fewer than one
 * script call per two messages) and each is delivered exactly once; of {@value #PRODUCERS} concurrent
 * {@code scheduleIfAbsent} calls with the same id exactly one stores it, and of calls with their own ids stored
 * together each tells whether its id was free; generated ids of concurrent {@code schedule} calls are all distinct.
 * Calls stored in one script run publish the same wake-ups (a message that becomes the queue's earliest announces its
 * due time), reply the same and leave the same queue as the same calls sent one by one, also when an upsert in the run
 * moves the queue's earliest message later.
 */
class DelayedScheduleBatchedTest {

    static final int PRODUCERS = 256;
    static final int PER_PRODUCER = 8;
    static final int MESSAGES = PRODUCERS * PER_PRODUCER;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class, RedisCommands.class));

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

    @Test
    void callsStoredInOneRunPublishTheWakeUpsOfTheSameCallsSentOneByOne() {
        // Absolute due times (in 2096), so both queues get the same ones; the queues have no consumer.
        long base = 4_000_000_000_000L;
        List<List<String>> calls = List.of(
                call("d1", "new", base + 4000),
                call("d2", "new", base + 900), // the earliest: published
                call("d3", "new", base + 800), // the earliest: published
                call("d4", "new", base + 850),
                call("d3", "upsert", base + 2000), // the earliest moves later: d4 (850) is the earliest now
                call("d5", "new", base + 820), // earlier than d4, not than d3 was: published
                call("d4", "absent", base + 1), // d4 exists: not stored
                call("d6", "absent", base + 810)); // the earliest: published
        String single = "pacer:d:{wake-single}:";
        String batch = "pacer:d:{wake-batch}:";
        List<String> published = new CopyOnWriteArrayList<>();
        AtomicBoolean subscribed = new AtomicBoolean();
        RedisSubscription subscription = new RedisSubscription(redis, List.of(single + "wake", batch + "wake"),
                "the test's wake-ups", new RedisSubscription.Listener() {
                    @Override
                    public void onMessage(String channel, String message) {
                        published.add(channel + " " + message);
                    }

                    @Override
                    public void onSubscribed() {
                        subscribed.set(true);
                    }
                });
        subscription.open();
        try {
            await().atMost(Duration.ofSeconds(10)).untilTrue(subscribed);
            for (String keys : List.of(single, batch)) {
                // Before the calls: the queue's earliest message (published, into an empty queue) and a later one.
                schedule(keys, call("early", "upsert", base + 1000));
                schedule(keys, call("late", "upsert", base + 5000));
            }
            List<String> singleReplies = new ArrayList<>();
            for (List<String> call : calls) {
                singleReplies.add(schedule(single, call).toString());
            }
            List<String> batchReplies = new ArrayList<>();
            redis.eval(DelayedScripts.SCHEDULE_BATCH, RedisCommands.shardKeys(batch), batchArgs(batch, calls))
                    .await().atMost(Duration.ofSeconds(10)).forEach(reply -> batchReplies.add(reply.toString()));
            // A subscriber gets messages in the order they were published: once the marker is in, every wake-up is.
            RedisCommands.send(redis, "PUBLISH", batch + "wake", "end");
            await().atMost(Duration.ofSeconds(10)).until(() -> published.contains(batch + "wake end"));

            List<String> replies = List.of("[1, " + (base + 4000) + "]", "[1, " + (base + 900) + "]",
                    "[1, " + (base + 800) + "]", "[1, " + (base + 850) + "]", "[1, " + (base + 2000) + "]",
                    "[1, " + (base + 820) + "]", "[0, 0]", "[1, " + (base + 810) + "]");
            assertThat(singleReplies).isEqualTo(replies);
            assertThat(batchReplies).isEqualTo(replies);
            List<Long> wakeUps = List.of(base + 900, base + 800, base + 820, base + 810);
            List<String> expected = new ArrayList<>();
            expected.add(single + "wake " + (base + 1000));
            expected.add(batch + "wake " + (base + 1000));
            wakeUps.forEach(due -> expected.add(single + "wake " + due));
            wakeUps.forEach(due -> expected.add(batch + "wake " + due));
            expected.add(batch + "wake end");
            assertThat(published).containsExactlyElementsOf(expected);
            assertThat(dueIds(batch)).isEqualTo(dueIds(single))
                    .containsExactly("d6", "d5", "d4", "d2", "early", "d3", "d1", "late");
        } finally {
            subscription.close();
        }
    }

    /** The first 6 ARGV of delayed-schedule.lua for a call with an absolute due time (the 7th: the wake-up channel). */
    private static List<String> call(String id, String mode, long due) {
        return List.of(id, "1", "t", mode, Long.toString(due), "0");
    }

    /** One call of delayed-schedule.lua on the shard whose keys start with {@code keys}: its reply. */
    private Response schedule(String keys, List<String> call) {
        List<String> args = new ArrayList<>(call);
        args.add(keys + "wake");
        return redis.eval(DelayedScripts.SCHEDULE, RedisCommands.shardKeys(keys), args)
                .await().atMost(Duration.ofSeconds(10));
    }

    /** The ARGV of delayed-schedule-batch.lua for {@code calls} on the shard whose keys start with {@code keys}. */
    private static List<String> batchArgs(String keys, List<List<String>> calls) {
        List<String> args = new ArrayList<>();
        args.add(Integer.toString(calls.size()));
        for (List<String> call : calls) {
            args.addAll(call);
            args.add(keys + "wake");
        }
        return args;
    }

    /** The ids in the due set of the shard whose keys start with {@code keys}, earliest first. */
    private List<String> dueIds(String keys) {
        List<String> ids = new ArrayList<>();
        RedisCommands.send(redis, "ZRANGE", keys + "due", 0, -1).forEach(id -> ids.add(id.toString()));
        return ids;
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
