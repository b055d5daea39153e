package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.test.PacerTestClock;
import io.quarkiverse.pacer.test.PacerTestQueues;
import io.quarkiverse.pacer.test.PacerTestThrottles;
import io.quarkiverse.pacer.test.support.ManyCallers;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The test kit on a local 3-master Redis Cluster (Redis 7): the clock's offset travels with every script call, so
 * concurrent decisions on keys of many slots (batched per master, the batch script with its flags line) refill by
 * exactly the time moved, and a queue in 3 shards delivers its 30-minute messages when the clock moves; resetting a
 * policy and purging queues find their keys on every master.
 */
class ClusterTestClockTest {

    static final int KEYS = 32;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Timeouts.class, ManyCallers.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
            .overrideConfigKey("quarkus.pacer.delayed.shards", "3")
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1h");

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "cluster-clock", limit = 2, window = "1h")
        public void call(@ThrottleKey String key) {
        }
    }

    @ApplicationScoped
    public static class Timeouts {
        final Set<String> expired = ConcurrentHashMap.newKeySet();

        @Delayed("cluster-timeout")
        void expire(DelayedMessage<String> message) {
            expired.add(message.id());
        }
    }

    @Inject
    Api api;

    @Inject
    Timeouts timeouts;

    @Inject
    DelayedQueue queue;

    @Inject
    PacerTestClock clock;

    @Inject
    PacerTestThrottles throttles;

    @Inject
    PacerTestQueues queues;

    @BeforeEach
    void clean() {
        clock.reset();
        throttles.resetAll();
        queues.purgeAll();
    }

    @Test
    void bucketsOfEverySlotRefillByTheTimeMoved() throws Exception {
        assertThat(admittedPerKey()).hasSize(KEYS).allSatisfy((key, n) -> assertThat(n.get()).as(key).isEqualTo(2));

        clock.advance(Duration.ofMinutes(30)); // 2 tokens an hour: one back on every key
        assertThat(admittedPerKey()).hasSize(KEYS).allSatisfy((key, n) -> assertThat(n.get()).as(key).isEqualTo(1));

        assertThat(throttles.reset("cluster-clock")).isEqualTo(KEYS);
        assertThat(admittedPerKey()).hasSize(KEYS).allSatisfy((key, n) -> assertThat(n.get()).as(key).isEqualTo(2));
    }

    @Test
    void shardedQueueDeliversWhenTheClockMoves() {
        for (int i = 0; i < 30; i++) {
            queue.schedule("cluster-timeout", "order-" + i, "x", Duration.ofMinutes(30));
        }
        assertThat(queues.waiting("cluster-timeout")).hasSize(30);
        queues.awaitIdle();
        assertThat(timeouts.expired).isEmpty();

        clock.advance(Duration.ofMinutes(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> timeouts.expired.size() == 30);
        queues.awaitIdle();
        assertThat(queue.size("cluster-timeout")).isZero();
    }

    /** 64 callers, 4 calls each, on {@value #KEYS} keys spread over the slots: the admissions per key. */
    private Map<String, AtomicInteger> admittedPerKey() throws Exception {
        Map<String, AtomicInteger> admitted = new ConcurrentHashMap<>();
        ManyCallers.run(64, 4, caller -> {
            String key = "tenant-" + (caller % KEYS);
            try {
                api.call(key);
                admitted.computeIfAbsent(key, ignored -> new AtomicInteger()).incrementAndGet();
                return true;
            } catch (ThrottledException rejected) {
                return false;
            }
        });
        return admitted;
    }
}
