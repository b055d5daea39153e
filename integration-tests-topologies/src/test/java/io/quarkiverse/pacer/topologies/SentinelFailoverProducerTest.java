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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.test.support.SentinelPrimary;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Producers ride out a Sentinel failover ({@code kill -9} of the primary) with the default settings: every blocking
 * and reactive {@code schedule} call made while the primary is gone waits for the new primary instead of failing,
 * because the failover completes within {@code quarkus.pacer.delayed.producer-timeout} (10 s).
 */
class SentinelFailoverProducerTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RedisInfo.class, SentinelPrimary.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "sentinel");

    @Inject
    DelayedQueue queue;

    @Inject
    ReactiveDelayedQueue reactiveQueue;

    @Test
    void noScheduleFailsWhileTheFailoverCompletesWithinTheProducerTimeout() throws Exception {
        List<Integer> sentinels = SentinelPrimary.sentinelPorts();
        int oldPrimary = SentinelPrimary.primaryPort(sentinels.get(0));

        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> lastFailure = new AtomicReference<>();
        AtomicLong longestCallNanos = new AtomicLong();
        AtomicBoolean producing = new AtomicBoolean(true);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            int producer = p;
            // Two producers call the blocking API, two the reactive one (awaited, so each has one call at a time).
            boolean reactive = p % 2 == 1;
            Thread thread = new Thread(() -> {
                int i = 0;
                while (producing.get()) {
                    String id = "m-" + producer + "-" + i++;
                    long started = System.nanoTime();
                    try {
                        if (reactive) {
                            reactiveQueue.scheduleWithId("failover", id, id, Duration.ofHours(1)).await()
                                    .atMost(Duration.ofSeconds(30));
                        } else {
                            queue.scheduleWithId("failover", id, id, Duration.ofHours(1));
                        }
                        acknowledged.add(id);
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                        lastFailure.set(e.toString());
                    }
                    longestCallNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
                }
            }, "producer-" + p);
            thread.start();
            producers.add(thread);
        }
        await().atMost(Duration.ofSeconds(30)).alias("300 schedules returned; last failure: " + lastFailure)
                .until(() -> acknowledged.size() >= 300);

        // kill -9 the primary: until the sentinels promote a replica, Redis is unreachable.
        long killedAt = System.nanoTime();
        SentinelPrimary.kill(oldPrimary);
        int acknowledgedAtKill = acknowledged.size();

        await().atMost(Duration.ofSeconds(60)).until(() -> SentinelPrimary.primaryPort(sentinels.get(0)) != oldPrimary);
        Duration failover = Duration.ofNanos(System.nanoTime() - killedAt);
        await().atMost(Duration.ofSeconds(60)).alias("300 schedules returned after the failover; last failure: "
                + lastFailure).until(() -> acknowledged.size() >= acknowledgedAtKill + 300);
        producing.set(false);
        for (Thread thread : producers) {
            thread.join(30_000);
        }

        // The precondition of the guarantee: the failover completed within the producer timeout.
        assertThat(failover).as("the failover took").isLessThan(Duration.ofSeconds(10));
        assertThat(failed.get()).as("schedule calls that failed; last failure: " + lastFailure).isZero();
        // The producers did meet the outage: a call waited for the new primary (the sentinels need 1 s to see the
        // primary down) instead of failing.
        assertThat(Duration.ofNanos(longestCallNanos.get())).as("the longest schedule call")
                .isGreaterThan(Duration.ofMillis(500));
    }

}
