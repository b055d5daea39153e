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

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumerStats;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;

/** 10,000 messages due at the same instant drain completely, each once, in claims never larger than batch-size. */
class DelayedSameDueTimeDrainTest {

    private static final int MESSAGES = 10_000;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.batch-size", "50")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final Set<Integer> received = ConcurrentHashMap.newKeySet();
        final AtomicInteger calls = new AtomicInteger();

        @Delayed(value = "storm", concurrency = 16)
        void on(Integer n) {
            received.add(n);
            calls.incrementAndGet();
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    ReactiveDelayedQueue reactiveQueue;

    @Inject
    Consumer consumer;

    @Inject
    DelayedConsumers consumers;

    @Test
    void drainsInBoundedBatches() {
        Instant due = Instant.now().plusSeconds(2);
        // At most 16 calls in flight: the Redis client's connection pool bounds concurrent requests.
        Multi.createFrom().range(0, MESSAGES)
                .onItem().transformToUni(i -> reactiveQueue.schedule("storm", i, due)).merge(16)
                .collect().asList().await().atMost(Duration.ofSeconds(60));

        await().atMost(Duration.ofSeconds(120)).until(() -> consumer.calls.get() >= MESSAGES);
        assertThat(consumer.received).hasSize(MESSAGES);
        assertThat(consumer.calls.get()).isEqualTo(MESSAGES);
        DelayedConsumerStats stats = consumers.stats("storm");
        assertThat(stats.largestClaim()).as("messages per claim").isBetween(1L, 50L);
        assertThat(stats.claims()).as("claim calls").isGreaterThanOrEqualTo(MESSAGES / 50);
        assertThat(stats.claimed()).isEqualTo(MESSAGES);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.size("storm") == 0);
    }
}
