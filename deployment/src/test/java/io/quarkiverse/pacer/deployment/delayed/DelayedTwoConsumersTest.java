package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.vertx.redis.client.Response;

/**
 * Two consumers compete for one queue — the application and a second instance simulated by a raw client running the
 * claim and ack scripts — and no message is processed twice: every message is handled exactly once in total.
 */
class DelayedTwoConsumersTest {

    private static final int MESSAGES = 2000;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.batch-size", "20")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class, RedisCommands.class));

    @Singleton
    static class Consumer {
        final Set<String> received = ConcurrentHashMap.newKeySet();
        final AtomicInteger calls = new AtomicInteger();
        /** Counted down when the application handles its first message: it has its share. */
        final CountDownLatch entered = new CountDownLatch(1);
        /**
         * Holds the application's handlers until the other instance has its share too, so neither can take every
         * message first, however the machine schedules the threads.
         */
        final CountDownLatch gate = new CountDownLatch(1);

        @Delayed(value = "shared", concurrency = 4)
        void on(String id) throws InterruptedException {
            entered.countDown();
            if (!gate.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the test never opened the gate");
            }
            calls.incrementAndGet();
            received.add(id);
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    ReactiveDelayedQueue reactiveQueue;

    @Inject
    Consumer consumer;

    @Inject
    PacerRedis redis;

    @Test
    void eachMessageIsProcessedByOneConsumer() throws InterruptedException {
        Instant due = Instant.now().plusMillis(1500);
        // At most 16 calls in flight: the Redis client's connection pool bounds concurrent requests.
        Multi.createFrom().range(0, MESSAGES)
                .onItem().transformToUni(i -> reactiveQueue.scheduleWithId("shared", "m-" + i, "m-" + i, due)).merge(16)
                .collect().asList().await().atMost(Duration.ofSeconds(60));

        assertThat(consumer.entered.await(60, TimeUnit.SECONDS)).as("the application took a message").isTrue();
        LuaScript claimScript = DelayedScripts.CLAIM;
        LuaScript ackScript = DelayedScripts.ACK;
        List<String> otherInstance = new ArrayList<>();
        int call = 0;
        while (queue.size("shared") > 0) {
            Response claim = redis.eval(claimScript,
                    RedisCommands.shardKeys("pacer:d:{shared}:"),
                    List.of("20", "30000", "100", "other-" + (call++))).await().atMost(Duration.ofSeconds(5));
            List<String> ack = new ArrayList<>();
            for (int i = 3; i < claim.size(); i += 7) {
                otherInstance.add(claim.get(i).toString());
                ack.add(claim.get(i).toString());
                ack.add(claim.get(i + 1).toString());
            }
            if (!otherInstance.isEmpty()) {
                consumer.gate.countDown(); // both have their share: compete freely from now on
            }
            if (!ack.isEmpty()) {
                Response acked = redis.eval(ackScript, RedisCommands.shardKeys("pacer:d:{shared}:"), ack).await()
                        .atMost(Duration.ofSeconds(5));
                assertThat(acked.toInteger()).isEqualTo(ack.size() / 2);
            }
        }
        consumer.gate.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received.size() + otherInstance.size() >= MESSAGES);

        Set<String> both = new HashSet<>(otherInstance);
        assertThat(both).as("the other instance never saw a message twice").hasSize(otherInstance.size());
        both.retainAll(consumer.received);
        assertThat(both).as("messages processed by both instances").isEmpty();
        assertThat(consumer.calls.get()).as("the application never saw a message twice")
                .isEqualTo(consumer.received.size());
        assertThat(consumer.received.size() + otherInstance.size()).isEqualTo(MESSAGES);
        assertThat(consumer.received).as("the application got its share").isNotEmpty();
        assertThat(otherInstance).as("the other instance got its share").isNotEmpty();
        assertThat(queue.size("shared")).isZero();
    }

}
