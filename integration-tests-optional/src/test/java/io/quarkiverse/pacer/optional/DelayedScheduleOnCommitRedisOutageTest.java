package io.quarkiverse.pacer.optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.integration.AfterCommitSender;
import io.quarkiverse.pacer.runtime.health.PacerRedisReadinessCheck;
import io.quarkiverse.pacer.test.support.RestartableRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Redis is down for 10 s while transactions that schedule (and cancel) messages commit: every committed operation is
 * retried until Redis is back, in call order per transaction, and every committed message is delivered exactly once.
 * The committing threads never wait for Redis, and the readiness check counts the operations waiting.
 */
class DelayedScheduleOnCommitRedisOutageTest {

    static final String QUEUE = "on-commit-outage";
    static final RestartableRedis REDIS = RestartableRedis.shared("on-commit-outage");

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class, Consumer.class, RestartableRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri());

    @ApplicationScoped
    static class Orders {
        @Inject
        DelayedQueue queue;

        /** Two messages, and a third one scheduled and cancelled again: in order, it never exists. */
        @Transactional
        public void place(String order) {
            queue.scheduleWithId(QUEUE, order + "-a", order + "-a", Duration.ZERO);
            queue.scheduleWithId(QUEUE, order + "-x", order + "-x", Duration.ofHours(1));
            queue.scheduleWithId(QUEUE, order + "-b", order + "-b", Duration.ZERO);
            queue.cancel(QUEUE, order + "-x");
        }
    }

    @Singleton
    static class Consumer {
        final Set<String> received = ConcurrentHashMap.newKeySet();
        final AtomicInteger calls = new AtomicInteger();

        @Delayed(QUEUE)
        void on(String id) {
            calls.incrementAndGet();
            received.add(id);
        }
    }

    @Inject
    Orders orders;

    @Inject
    Consumer consumer;

    @Inject
    DelayedQueue queue;

    @Inject
    AfterCommitSender afterCommit;

    @Inject
    @Readiness
    PacerRedisReadinessCheck readiness;

    @Test
    void everyCommittedMessageIsDeliveredOnceRedisIsBack() throws Exception {
        orders.place("before");
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received.size() == 2);

        REDIS.stop();
        long stoppedAt = System.nanoTime();
        List<String> expected = new ArrayList<>(List.of("before-a", "before-b"));
        for (int i = 0; i < 10; i++) {
            orders.place("o-" + i);
            // The commit returned while its operations still wait for Redis: it did not wait for them.
            assertThat(afterCommit.pending()).isEqualTo(4 * (i + 1));
            expected.add("o-" + i + "-a");
            expected.add("o-" + i + "-b");
        }
        // Nothing can have reached Redis: every operation of the 10 transactions waits.
        assertThat(afterCommit.pending()).isEqualTo(40);
        // The outage itself: Redis stays down for 10 s, well past the three attempts 50 ms apart Pacer once made.
        long downFor = Duration.ofSeconds(10).toNanos() - (System.nanoTime() - stoppedAt);
        if (downFor > 0) {
            Thread.sleep(Duration.ofNanos(downFor).toMillis());
        }
        assertThat(afterCommit.pending()).isEqualTo(40);
        HealthCheckResponse down = readiness.call().await().atMost(Duration.ofSeconds(10));
        assertThat(down.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(down.getData().orElseThrow()).containsEntry("delayed after-commit pending", 40L);
        REDIS.start();

        await().atMost(Duration.ofSeconds(60)).until(() -> afterCommit.pending() == 0);
        await().atMost(Duration.ofSeconds(60)).until(() -> consumer.received.size() == expected.size());
        assertThat(consumer.received).containsExactlyInAnyOrderElementsOf(expected);
        // The cancellations ran after their schedules: no "-x" message is left waiting.
        await().atMost(Duration.ofSeconds(30)).until(() -> queue.size(QUEUE) == 0);
        assertThat(consumer.calls.get()).isEqualTo(expected.size());
        HealthCheckResponse up = readiness.call().await().atMost(Duration.ofSeconds(10));
        assertThat(up.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(up.getData().orElseThrow()).containsEntry("delayed after-commit pending", 0L);
    }
}
