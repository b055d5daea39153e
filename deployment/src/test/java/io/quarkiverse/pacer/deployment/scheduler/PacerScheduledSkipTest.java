package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.SkippedExecution;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code concurrentExecution = SKIP} with {@code executeWith = "PACER"} holds across instances: a run holds a lease in
 * Redis, and no tick starts while any instance's lease is live (the test writes another instance's lease itself); the
 * skipped ticks fire {@code SkippedExecution}; when that instance's lease expires, its tick runs again here, and the
 * job's ticks go on.
 */
class PacerScheduledSkipTest {

    private static final String RUNS = "pacer:s:{skip}:runs";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Job.class, RedisCommands.class));

    @Singleton
    static class Job {
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger skipped = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        final List<Long> ticks = new CopyOnWriteArrayList<>();

        @Scheduled(every = "1s", identity = "skip", executeWith = "PACER", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
        void run(ScheduledExecution execution) throws InterruptedException {
            ticks.add(execution.getScheduledFireTime().toEpochMilli());
            started.incrementAndGet();
            release.await();
        }

        void onSkipped(@Observes SkippedExecution skipped) {
            if (skipped.getExecution().getTrigger().getId().equals("skip")) {
                this.skipped.incrementAndGet();
            }
        }
    }

    @Inject
    Job job;

    @Inject
    PacerRedis redis;

    @Test
    void noTickStartsWhileAnyInstanceHoldsTheLease() {
        // This instance's own run holds the lease: the following ticks are skipped, not started.
        await().atMost(Duration.ofSeconds(30)).until(() -> job.started.get() == 1);
        assertThat(RedisCommands.send(redis, "ZCARD", RUNS).toInteger()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> job.skipped.get() >= 2);
        assertThat(job.started.get()).isEqualTo(1);
        job.release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> RedisCommands.send(redis, "ZCARD", RUNS).toInteger() == 0
                || job.started.get() > 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> job.started.get() >= 2);

        // Another instance's run holds the lease: nothing starts here until it is gone.
        long redisNow = RedisCommands.send(redis, "TIME").get(0).toLong() * 1000;
        long otherTick = redisNow - 60_000;
        String other = otherTick + ":1:another-instance:1";
        RedisCommands.send(redis, "ZADD", RUNS, redisNow + 600_000, other);
        int startedBefore = job.started.get();
        int skippedBefore = job.skipped.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> job.skipped.get() >= skippedBefore + 2);
        // A run may have started in the instant before the lease was written, not after.
        assertThat(job.started.get()).isLessThanOrEqualTo(startedBefore + 1);
        int startedUnderLease = job.started.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> job.skipped.get() >= skippedBefore + 4);
        assertThat(job.started.get()).isEqualTo(startedUnderLease);

        // The other instance dies: once its lease expires, its tick runs again here, then the job's ticks go on.
        RedisCommands.send(redis, "ZADD", RUNS, "XX", redisNow - 1, other);
        await().atMost(Duration.ofSeconds(30)).until(() -> job.ticks.contains(otherTick));
        await().atMost(Duration.ofSeconds(30)).until(() -> job.started.get() > startedUnderLease + 1);
        assertThat(job.ticks).doesNotHaveDuplicates();
    }
}
