package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Response;

/**
 * A second consumer (a raw client running the claim script) claims a message and dies without acknowledging it: once
 * its lease expires the application receives the message, counted as a redelivery, not as a failed attempt. Polling
 * is set to 30s, so the redelivery comes from the loop waking at the lease deadline.
 */
class DelayedLeaseExpiryTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.batch-size", "1")
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "30s")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class, RedisCommands.class));

    @Singleton
    static class Consumer {
        final List<String> received = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);

        @Delayed(value = "leases", concurrency = 1)
        void on(DelayedMessage<String> message) throws InterruptedException {
            if (message.payload().startsWith("blocker")) {
                release.await(30, TimeUnit.SECONDS);
            }
            received.add(message.id() + " attempt=" + message.attempt() + " redeliveries=" + message.redeliveries());
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
    void redeliveredAfterTheLeaseOfADeadConsumerExpires() {
        // Fill the application's consumer (1 running + 1 waiting with batch-size 1), so it cannot claim the victim.
        queue.scheduleWithId("leases", "blocker-1", "blocker", Duration.ZERO);
        queue.scheduleWithId("leases", "blocker-2", "blocker", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.stats("leases").claimed() == 2);

        queue.scheduleWithId("leases", "victim", "victim", Duration.ZERO);
        Response claim = redis.eval(DelayedScripts.CLAIM,
                RedisCommands.shardKeys("pacer:d:{leases}:"),
                List.of("10", "500", "100", "dead-consumer")).await().atMost(Duration.ofSeconds(5));
        List<String> claimedIds = new ArrayList<>();
        for (int i = 3; i < claim.size(); i += 7) {
            claimedIds.add(claim.get(i).toString());
        }
        assertThat(claimedIds).containsExactly("victim");
        // ... and the raw client never acknowledges: it "died".

        consumer.release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.received.size() == 3);
        assertThat(consumer.received).containsExactly(
                "blocker-1 attempt=1 redeliveries=0",
                "blocker-2 attempt=1 redeliveries=0",
                "victim attempt=1 redeliveries=1");
        assertThat(consumers.stats("leases").reclaimed()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("leases") == 0);
    }

}
