package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * With a 30s safety poll, a message scheduled 1s ahead on an idle queue is delivered about 1s later: the producer's
 * wake-up and the loop's due-time timer deliver it, not the poll. The same holds when the wake-up connection was just
 * dropped (as in a failover): it is reopened by itself, and the notification missed meanwhile is made up for.
 */
class DelayedLatenessTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "30s")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final List<Long> receivedAtNanos = new CopyOnWriteArrayList<>();

        @Delayed("timely")
        void on(String payload) {
            receivedAtNanos.add(System.nanoTime());
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    DelayedConsumers consumers;

    @Inject
    PacerRedis redis;

    @Test
    void deliveredAtItsDueTimeNotAtThePoll() {
        // The idle loop has claimed once at startup and sleeps: nothing is due, no timer is armed.
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.stats("timely").claims() >= 1);

        int before = consumer.receivedAtNanos.size();
        long scheduledAt = System.nanoTime();
        queue.schedule("timely", "hello", Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.receivedAtNanos.size() == before + 1);

        Duration elapsed = Duration.ofNanos(consumer.receivedAtNanos.get(before) - scheduledAt);
        assertThat(elapsed).as("not before its due time").isGreaterThanOrEqualTo(Duration.ofMillis(990));
        assertThat(elapsed).as("well under the 30s poll interval").isLessThan(Duration.ofSeconds(10));
        assertThat(consumers.stats("timely").maxLatenessMillis()).as("lateness seen by the claim")
                .isLessThan(1000);
    }

    @Test
    void wakeUpConnectionDroppedByRedisIsReopened() {
        await().atMost(Duration.ofSeconds(10)).until(() -> wakeUpChannels().contains("timely"));
        int before = consumer.receivedAtNanos.size();

        redis.send(Request.cmd(Command.CLIENT).arg("KILL").arg("TYPE").arg("pubsub")).await()
                .atMost(Duration.ofSeconds(5));
        // Published while nothing listens: the notification is lost.
        queue.schedule("timely", "while-down", Duration.ofMillis(200));

        await().atMost(Duration.ofSeconds(10)).until(() -> wakeUpChannels().contains("timely"));
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.receivedAtNanos.size() == before + 1);
        // Delivered by the reopened subscription's claim, not by the 30s poll (which would fail the await above).
    }

    private String wakeUpChannels() {
        return redis.send(Request.cmd(Command.PUBSUB).arg("CHANNELS").arg("*")).await()
                .atMost(Duration.ofSeconds(5)).toString();
    }
}
