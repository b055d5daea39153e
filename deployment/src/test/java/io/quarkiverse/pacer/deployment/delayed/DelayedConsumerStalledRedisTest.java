package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.deployment.devservices.LocalRedisServer;
import io.quarkiverse.pacer.devservices.common.LocalRedisServerChoice;
import io.quarkiverse.pacer.test.support.StallingProxy;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A claim whose reply never comes (its connection stalled) once left the consumer believing the claim still ran, and
 * it never claimed again. Every delay-queue call is bounded by {@code quarkus.pacer.redis.timeout}: the lost claim
 * fails, the loop keeps claiming, and once a working connection is open again every message is delivered.
 */
class DelayedConsumerStalledRedisTest {

    private static final String HOLDER = "pacer.test.stalled-redis";

    /**
     * JUnit and Quarkus each load this class: the server, the proxy and its stall switch are created once and kept in
     * system properties, as types both class loaders share.
     */
    static final LocalRedisServer SERVER = shared(".server", () -> {
        LocalRedisServer server = new LocalRedisServer(LocalRedisServerChoice.choose(LocalRedisServerChoice.AUTO), "test",
                "started by the test");
        server.start();
        return server;
    });
    static final AtomicBoolean STALLED = shared(".stalled", AtomicBoolean::new);
    static final AtomicInteger LOST_REQUESTS = shared(".lost", AtomicInteger::new);
    static final AutoCloseable PROXY = shared(".proxy", () -> new StallingProxy(SERVER.port(), STALLED, LOST_REQUESTS));
    static final Integer PROXY_PORT = shared(".port", () -> ((StallingProxy) PROXY).port());

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, StallingProxy.class))
            .overrideConfigKey("quarkus.redis.hosts", "redis://localhost:" + PROXY_PORT)
            .overrideConfigKey("quarkus.pacer.redis.timeout", "500ms")
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "500ms");

    @Singleton
    static class Consumer {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Delayed("stall")
        void on(String payload) {
            received.add(payload);
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Test
    void consumptionRecoversFromAClaimThatNeverReturns() {
        queue.schedule("stall", "before", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.received.contains("before"));

        queue.schedule("stall", "during", Duration.ofMillis(300));
        STALLED.set(true);
        // The next claim (at the due time, or the safety poll's) goes out on a connection that stalls for good.
        await().atMost(Duration.ofSeconds(5)).until(() -> LOST_REQUESTS.get() > 0);
        STALLED.set(false);

        // Calls on the stalled connection fail within their budget until Pacer gives it up and opens a fresh one.
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            queue.scheduleWithId("stall", "after", "after", Duration.ZERO);
            return true;
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received.size() == 3);
        assertThat(consumer.received).containsExactlyInAnyOrder("before", "during", "after");
    }

    @SuppressWarnings("unchecked")
    private static <T> T shared(String name, Supplier<T> create) {
        synchronized (System.getProperties()) {
            Object existing = System.getProperties().get(HOLDER + name);
            if (existing == null) {
                existing = create.get();
                System.getProperties().put(HOLDER + name, existing);
            }
            return (T) existing;
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (String name : new String[] { ".server", ".stalled", ".lost", ".proxy", ".port" }) {
            System.getProperties().remove(HOLDER + name);
        }
        PROXY.close();
        SERVER.close();
    }
}
