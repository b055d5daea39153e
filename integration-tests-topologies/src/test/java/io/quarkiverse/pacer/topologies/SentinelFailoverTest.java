package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.test.support.SentinelPrimary;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A primary, two replicas and three sentinels: the primary is killed ({@code kill -9}) during a delayed run with
 * {@code durability=replicas}. Every message whose {@code schedule} returned is delivered; schedules during the switch
 * fail with an error instead of returning; throttling rejects during the switch ({@code on-redis-failure=reject}) and
 * decides exactly again afterwards, all without restarting the application.
 */
class SentinelFailoverTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, Api.class, RedisInfo.class, SentinelPrimary.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "sentinel")
            .overrideConfigKey("quarkus.pacer.delayed.durability", "replicas")
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1s")
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "reject");

    @Singleton
    static class Consumer {
        final Set<String> received = ConcurrentHashMap.newKeySet();

        @Delayed(value = "failover", concurrency = 4)
        void on(String id) {
            received.add(id);
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "after-failover", limit = 5, window = "1d")
        public void call(@ThrottleKey String key) {
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    Api api;

    @Test
    void everyAcknowledgedScheduleIsDeliveredAcrossAFailover() throws Exception {
        assertThat(ConfigProvider.getConfig().getValue("quarkus.redis.client-type", String.class)).isEqualTo("sentinel");
        List<Integer> sentinels = SentinelPrimary.sentinelPorts();
        int oldPrimary = SentinelPrimary.primaryPort(sentinels.get(0));

        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> lastFailure = new AtomicReference<>();
        AtomicBoolean producing = new AtomicBoolean(true);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            int producer = p;
            Thread thread = new Thread(() -> {
                int i = 0;
                while (producing.get()) {
                    String id = "m-" + producer + "-" + i++;
                    try {
                        queue.scheduleWithId("failover", id, id, Duration.ofMillis(300));
                        acknowledged.add(id);
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                        lastFailure.set(e.toString());
                    }
                }
            }, "producer-" + p);
            thread.start();
            producers.add(thread);
        }
        await().atMost(Duration.ofSeconds(30)).alias("300 schedules returned; last failure: " + lastFailure)
                .until(() -> acknowledged.size() >= 300);
        assertThat(admitted("before")).isTrue();

        // kill -9 the primary: no chance to replicate what it has not sent yet.
        SentinelPrimary.kill(oldPrimary);
        int acknowledgedAtKill = acknowledged.size();

        await().atMost(Duration.ofSeconds(60)).until(() -> SentinelPrimary.primaryPort(sentinels.get(0)) != oldPrimary);
        // Throttling and scheduling resume by themselves on the new primary.
        await().atMost(Duration.ofSeconds(60)).until(() -> admitted("resumed"));
        await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= acknowledgedAtKill + 300);
        producing.set(false);
        for (Thread thread : producers) {
            thread.join(30_000);
        }

        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            admitted += admitted("after") ? 1 : 0;
        }
        assertThat(admitted).as("exact again after the failover").isEqualTo(5);

        await().atMost(Duration.ofSeconds(60)).until(() -> consumer.received.containsAll(acknowledged));
        assertThat(consumer.received).containsAll(acknowledged);
    }

    private boolean admitted(String key) {
        try {
            api.call(key);
            return true;
        } catch (ThrottledException e) {
            return false;
        }
    }

}
