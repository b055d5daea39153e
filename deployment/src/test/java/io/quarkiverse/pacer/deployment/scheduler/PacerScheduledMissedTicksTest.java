package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Ticks nobody claimed in time (the test moves a job's next tick ten seconds back in Redis, on a grid half a second
 * off the job's own, as if every instance had been down): those still within {@code overdueGracePeriod} run late, one
 * each, with their own scheduled fire time; older ones are skipped.
 */
class PacerScheduledMissedTicksTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class, RedisCommands.class));

    @Singleton
    static class Jobs {
        final List<Long> shortGrace = new CopyOnWriteArrayList<>();
        final List<Long> longGrace = new CopyOnWriteArrayList<>();

        @Scheduled(every = "1s", identity = "short-grace", executeWith = "PACER")
        void shortGrace(ScheduledExecution execution) {
            shortGrace.add(execution.getScheduledFireTime().toEpochMilli());
        }

        @Scheduled(every = "1s", identity = "long-grace", overdueGracePeriod = "1h", executeWith = "PACER")
        void longGrace(ScheduledExecution execution) {
            longGrace.add(execution.getScheduledFireTime().toEpochMilli());
        }
    }

    @Inject
    Jobs jobs;

    @Inject
    PacerRedis redis;

    @Test
    void ticksWithinTheGracePeriodRunLateOlderOnesAreSkipped() {
        await().atMost(Duration.ofSeconds(30)).until(() -> !jobs.shortGrace.isEmpty() && !jobs.longGrace.isEmpty());
        long shortFrom = moveBack("short-grace");
        long longFrom = moveBack("long-grace");

        // Long grace: every tick of the shifted grid from ten seconds ago runs, once. They are claimed in order, but
        // the late ones run at once, side by side (concurrentExecution = PROCEED), so they may end in any order.
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.longGrace.contains(longFrom + 10_000));
        List<Long> shifted = jobs.longGrace.stream().filter(tick -> onGrid(tick, longFrom)).toList();
        assertThat(shifted).doesNotHaveDuplicates();
        for (int i = 0; i < 10; i++) {
            assertThat(shifted).contains(longFrom + i * 1000L);
        }

        // Short grace (one second): the ticks older than a second are skipped.
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.shortGrace.stream().anyMatch(t -> t > shortFrom + 10_000));
        assertThat(jobs.shortGrace).doesNotHaveDuplicates()
                .noneMatch(tick -> onGrid(tick, shortFrom) && tick < shortFrom + 8_000);
        assertThat(jobs.shortGrace).anyMatch(tick -> onGrid(tick, shortFrom));
    }

    private static boolean onGrid(long tick, long from) {
        return tick >= from && (tick - from) % 1000 == 0;
    }

    /** Moves the job's next tick back by 9.5 s, as if nobody had claimed the ticks since; returns it. */
    private long moveBack(String job) {
        String key = "pacer:s:{" + job + "}";
        long next = RedisCommands.send(redis, "HGET", key, "next").toLong();
        long from = next - 9_500;
        RedisCommands.send(redis, "HSET", key, "next", from);
        return from;
    }
}
