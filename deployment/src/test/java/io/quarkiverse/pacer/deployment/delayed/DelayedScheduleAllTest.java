package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.delay.ScheduledMessage;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code scheduleAll} stores many messages with the upsert semantics of {@code scheduleWithId(queue, id, payload, Instant)}
 * (an existing id is replaced; of two in one call the later wins), in one script call per 1,000 messages per shard,
 * and bad input stores nothing.
 */
class DelayedScheduleAllTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final Map<String, String> received = new ConcurrentHashMap<>();
        final AtomicInteger deliveries = new AtomicInteger();

        @Delayed("bulk")
        void on(DelayedMessage<String> message) {
            received.put(message.id(), message.payload());
            deliveries.incrementAndGet();
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
    void storesAllWithUpsertSemantics() {
        Instant later = Instant.now().plus(Duration.ofHours(1));
        queue.scheduleWithId("bulk", "existing", "old", later);

        Instant soon = Instant.now().plusMillis(500);
        List<ScheduledMessage> messages = new ArrayList<>();
        for (int i = 0; i < 2_400; i++) {
            messages.add(ScheduledMessage.of("m" + i, "p" + i, soon));
        }
        messages.add(ScheduledMessage.of("existing", "new", soon));
        messages.add(ScheduledMessage.of("twice", "first", later));
        messages.add(ScheduledMessage.of("twice", "second", soon));

        long before = RedisInfo.calls(redis, "evalsha") + RedisInfo.calls(redis, "eval");
        List<String> ids = queue.scheduleAll("bulk", messages);
        long calls = RedisInfo.calls(redis, "evalsha") + RedisInfo.calls(redis, "eval") - before;

        assertThat(ids).hasSize(2_403).startsWith("m0", "m1").endsWith("existing", "twice", "twice");
        // 2,403 messages on one shard: three calls of at most 1,000 (consumer polls may add a few claims).
        assertThat(calls).isGreaterThanOrEqualTo(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received.size() == 2_402);
        assertThat(consumer.received).containsEntry("existing", "new").containsEntry("twice", "second")
                .containsEntry("m0", "p0").containsEntry("m2399", "p2399");
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.size("bulk") == 0);
        assertThat(consumer.deliveries.get()).isEqualTo(2_402);
    }

    @Test
    void reactiveTwinReturnsTheIdsAndGeneratesMissingOnes() {
        ScheduledMessage generated = ScheduledMessage.of("payload", Instant.now().plus(Duration.ofHours(1)));
        List<String> ids = reactiveQueue.scheduleAll("bulk", List.of(generated,
                ScheduledMessage.of("named", "x", Instant.now().plus(Duration.ofHours(1))))).await()
                .atMost(Duration.ofSeconds(10));
        assertThat(ids).containsExactly(generated.id(), "named");
        assertThat(queue.cancel("bulk", generated.id())).isTrue();
        assertThat(queue.cancel("bulk", "named")).isTrue();
        assertThat(reactiveQueue.scheduleAll("bulk", List.of()).await().atMost(Duration.ofSeconds(10))).isEmpty();
    }

    @Test
    void badInputStoresNothing() {
        long size = queue.size("bulk");
        List<ScheduledMessage> messages = List.of(
                ScheduledMessage.of("good", "x", Instant.now().plus(Duration.ofHours(1))),
                ScheduledMessage.of("", "x", Instant.now().plus(Duration.ofHours(1))));
        assertThatThrownBy(() -> queue.scheduleAll("bulk", messages)).isInstanceOf(IllegalArgumentException.class);
        assertThat(queue.size("bulk")).isEqualTo(size);
        assertThat(queue.cancel("bulk", "good")).isFalse();
    }
}
