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
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Response;

/**
 * A handler running five times longer than its lease keeps the message: the lease is renewed while it runs, so a
 * competing consumer claiming meanwhile gets nothing and the message is delivered once.
 */
class DelayedLeaseRenewalTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class, RedisCommands.class));

    @Singleton
    static class Consumer {
        final List<String> started = new CopyOnWriteArrayList<>();
        final List<String> finished = new CopyOnWriteArrayList<>();

        @Delayed(value = "long-running", lease = "300ms")
        void on(DelayedMessage<String> message) throws InterruptedException {
            started.add(message.id());
            long end = System.nanoTime() + Duration.ofMillis(1500).toNanos();
            while (System.nanoTime() < end) {
                Thread.sleep(50); // the handler's own work, not a test wait
            }
            finished.add(message.id() + " redeliveries=" + message.redeliveries());
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
    void leaseIsRenewedWhileTheHandlerRuns() {
        queue.scheduleWithId("long-running", "slow", "payload", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.started.size() == 1);

        LuaScript claim = DelayedScripts.CLAIM;
        int competingClaims = 0;
        while (consumer.finished.isEmpty()) {
            Response response = redis.eval(claim,
                    RedisCommands.shardKeys("pacer:d:{long-running}:"),
                    List.of("10", "30000", "100", "competitor-" + competingClaims++)).await().atMost(Duration.ofSeconds(5));
            assertThat(response.size()).as("a competitor claims nothing while the lease is renewed").isEqualTo(3);
            assertThat(response.get(2).toInteger()).as("no lease expired").isZero();
            await().pollDelay(Duration.ofMillis(100)).atMost(Duration.ofSeconds(1)).until(() -> true);
        }
        assertThat(competingClaims).isGreaterThan(3);
        assertThat(consumer.finished).containsExactly("slow redeliveries=0");
        assertThat(consumer.started).containsExactly("slow");
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("long-running") == 0);
        assertThat(consumers.stats("long-running").reclaimed()).isZero();
    }

}
