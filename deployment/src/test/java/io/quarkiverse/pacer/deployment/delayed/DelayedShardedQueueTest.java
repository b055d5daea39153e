package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * A queue split into 4 shards: messages spread over 4 hash tags, cancel and dead letters find the right shard, every
 * message is delivered once, and concurrency stays a per-queue limit across shards.
 */
class DelayedShardedQueueTest {

    private static final int MESSAGES = 200;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.shards", "4")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final Set<String> received = ConcurrentHashMap.newKeySet();
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();

        @Delayed(value = "sharded", concurrency = 2, maxAttempts = 1)
        void on(DelayedMessage<String> message) {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            try {
                calls.incrementAndGet();
                received.add(message.id());
                if (message.id().endsWith("7")) {
                    throw new IllegalStateException("ids ending in 7 fail");
                }
            } finally {
                running.decrementAndGet();
            }
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    PacerRedis redis;

    @Test
    void shardsSpreadAndDeliverOnce() {
        // Due in an hour: the spread is read before any consumer may claim, however slow scheduling is.
        Instant later = Instant.now().plus(Duration.ofHours(1));
        for (int i = 0; i < MESSAGES; i++) {
            queue.scheduleWithId("sharded", "m-" + i, "payload " + i, later);
        }
        for (int shard = 0; shard < 4; shard++) {
            assertThat(zcard("pacer:d:{sharded#" + shard + "}:due")).as("shard " + shard).isPositive();
        }
        assertThat(queue.size("sharded")).isEqualTo(MESSAGES);
        assertThat(queue.cancel("sharded", "m-0")).isTrue();
        assertThat(queue.size("sharded")).isEqualTo(MESSAGES - 1);
        // Upsert by id: the same messages, due now, on the shards they already occupy.
        Instant now = Instant.now();
        for (int i = 1; i < MESSAGES; i++) {
            queue.scheduleWithId("sharded", "m-" + i, "payload " + i, now);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.calls.get() >= MESSAGES - 1);
        assertThat(consumer.received).hasSize(MESSAGES - 1).doesNotContain("m-0");
        assertThat(consumer.calls.get()).isEqualTo(MESSAGES - 1);
        assertThat(consumer.maxRunning.get()).as("concurrency is per queue, across shards").isBetween(1, 2);

        int failing = MESSAGES / 10; // m-7, m-17, ..., m-197
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.deadLetterCount("sharded") == failing);
        assertThat(queue.deadLetters("sharded", 1000)).hasSize(failing)
                .extracting(DeadLetter::reason).containsOnly("java.lang.IllegalStateException: ids ending in 7 fail");
        assertThat(queue.purge("sharded", "m-7")).isTrue();
        assertThat(queue.purgeDeadLetters("sharded")).isEqualTo(failing - 1);
        assertThat(queue.size("sharded")).isZero();
        assertThat(queue.deadLetterCount("sharded")).isZero();
    }

    private long zcard(String key) {
        return redis.send(Request.cmd(Command.ZCARD).arg(key)).await().atMost(Duration.ofSeconds(5)).toLong();
    }
}
