package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * At shutdown the consumer stops claiming, returns claimed messages whose handler has not started to the queue at
 * once (no lease to wait for), and waits for the running handler, whose success is acknowledged.
 */
class DelayedGracefulShutdownTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.batch-size", "10")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final List<String> started = new CopyOnWriteArrayList<>();
        final List<String> finished = new CopyOnWriteArrayList<>();
        final CountDownLatch proceed = new CountDownLatch(1);

        @Delayed(value = "closing", concurrency = 1)
        void on(String payload) throws InterruptedException {
            started.add(payload);
            proceed.await(20, TimeUnit.SECONDS);
            finished.add(payload);
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    DelayedConsumers consumers;

    @Inject
    Event<ShutdownEvent> shutdown;

    @Inject
    PacerRedis redis;

    @Test
    void releasesUnstartedAndFinishesRunning() throws Exception {
        for (int i = 0; i < 5; i++) {
            queue.scheduleWithId("closing", "m-" + i, "m-" + i, Duration.ZERO);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.started.size() == 1
                && consumers.stats("closing").claimed() == 5);
        assertThat(zcard("pacer:d:{closing}:inflight")).as("all five held by this instance").isEqualTo(5);

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> shutdown.fire(new ShutdownEvent()));
        // The four waiting messages go back to due while the handler still runs.
        await().atMost(Duration.ofSeconds(10)).until(() -> zcard("pacer:d:{closing}:due") == 4);
        assertThat(stopping).isNotDone();
        assertThat(zcard("pacer:d:{closing}:inflight")).isEqualTo(1);

        consumer.proceed.countDown();
        stopping.get(10, TimeUnit.SECONDS);
        assertThat(consumer.finished).containsExactly(consumer.started.get(0));
        assertThat(consumer.started).hasSize(1);
        assertThat(zcard("pacer:d:{closing}:inflight")).as("the finished message was acknowledged").isZero();
        assertThat(zcard("pacer:d:{closing}:due")).isEqualTo(4);
        assertThat(queue.size("closing")).isEqualTo(4);
    }

    private long zcard(String key) {
        return redis.send(Request.cmd(Command.ZCARD).arg(key)).await().atMost(Duration.ofSeconds(5)).toLong();
    }
}
