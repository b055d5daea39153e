package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.scheduler.SkippedExecution;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With Micrometer, each {@code PACER} job has meters tagged with its identity: runs per outcome, the lateness of each
 * claimed tick, runs taken over from a dead instance, and skipped ticks per reason ({@code concurrentExecution = SKIP},
 * {@code skipExecutionIf}, missed
 * beyond the overdue grace period), each counting exactly what happened.
 */
class PacerScheduledMetricsTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-micrometer-registry-prometheus-deployment",
                    Version.getVersion())))
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class, AlwaysSkip.class, RedisCommands.class));

    @Singleton
    static class AlwaysSkip implements Scheduled.SkipPredicate {
        @Override
        public boolean test(ScheduledExecution execution) {
            return true;
        }
    }

    @Singleton
    static class Jobs {
        final AtomicInteger metered = new AtomicInteger();
        final AtomicInteger busy = new AtomicInteger();
        final AtomicInteger predicate = new AtomicInteger();
        final AtomicInteger overdue = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        final Map<String, AtomicInteger> skipped = new ConcurrentHashMap<>();

        @Scheduled(every = "1s", identity = "metered", executeWith = "PACER")
        void metered() {
            if (metered.incrementAndGet() == 2) {
                throw new IllegalStateException("The second run fails");
            }
        }

        @Scheduled(every = "1s", identity = "busy", executeWith = "PACER", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
        void busy() throws InterruptedException {
            busy.incrementAndGet();
            release.await();
        }

        @Scheduled(every = "1s", identity = "predicate", executeWith = "PACER", skipExecutionIf = AlwaysSkip.class)
        void predicate() {
            predicate.incrementAndGet();
        }

        @Scheduled(every = "1m", identity = "overdue", executeWith = "PACER")
        void overdue() {
            overdue.incrementAndGet();
        }

        void onSkipped(@Observes SkippedExecution event) {
            skipped.computeIfAbsent(event.getExecution().getTrigger().getId(), id -> new AtomicInteger()).incrementAndGet();
        }

        int skipped(String job) {
            AtomicInteger count = skipped.get(job);
            return count == null ? 0 : count.get();
        }
    }

    @Inject
    Jobs jobs;

    @Inject
    MeterRegistry registry;

    @Inject
    Scheduler scheduler;

    @Inject
    PacerRedis redis;

    @Test
    void metersCountRunsLatenessAndSkippedTicksPerJob() {
        try {
            // Runs per outcome, and one lateness per claimed tick, never beyond the grace period (1 s).
            await().atMost(Duration.ofSeconds(30)).until(() -> jobs.metered.get() >= 3);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                int runs = jobs.metered.get();
                assertThat(runs("metered", "failure")).isEqualTo(1);
                assertThat(runs("metered", "success")).isEqualTo(runs - 1);
                assertThat(lateness("metered").count()).isEqualTo(runs);
            });
            assertThat(lateness("metered").max(TimeUnit.MILLISECONDS)).isLessThanOrEqualTo(1000);
            assertThat(counter("pacer.scheduler.reruns", "metered", null, null)).isZero();
            for (String reason : List.of("concurrent-execution", "skip-execution-if", "overdue")) {
                assertThat(skipped("metered", reason)).isZero();
            }

            // Another instance died running a tick: its run is taken over here, counted as a rerun and a run, with
            // no lateness of its own.
            long redisNow = RedisCommands.send(redis, "TIME").get(0).toLong() * 1000;
            RedisCommands.send(redis, "ZADD", "pacer:s:{metered}:runs", redisNow - 1,
                    (redisNow - 5_000) + ":1:another-instance:1");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> counter("pacer.scheduler.reruns", "metered", null, null) == 1);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                int runs = jobs.metered.get();
                assertThat(runs("metered", "failure")).isEqualTo(1);
                assertThat(runs("metered", "success")).isEqualTo(runs - 1);
                assertThat(lateness("metered").count()).isEqualTo(runs - 1);
            });

            // concurrentExecution = SKIP: every tick while the first run is in flight.
            await().atMost(Duration.ofSeconds(30)).until(() -> jobs.skipped("busy") >= 2);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(
                    () -> assertThat(skipped("busy", "concurrent-execution")).isEqualTo(jobs.skipped("busy")));
            assertThat(jobs.busy.get()).isEqualTo(1);
            assertThat(runs("busy", "success") + runs("busy", "failure")).isZero();

            // skipExecutionIf: claimed ticks the predicate skips are skipped, not runs.
            await().atMost(Duration.ofSeconds(30)).until(() -> jobs.skipped("predicate") >= 2);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(
                    () -> assertThat(skipped("predicate", "skip-execution-if")).isEqualTo(jobs.skipped("predicate")));
            assertThat(jobs.predicate.get()).isZero();
            assertThat(runs("predicate", "success") + runs("predicate", "failure")).isZero();

            // Missed beyond the grace period: the job's next tick was 90 s ago (every instance down): the ticks of
            // 90 s and 30 s ago are skipped, the next one comes 30 s from now.
            await().atMost(Duration.ofSeconds(30)).until(() -> jobs.overdue.get() == 1);
            redisNow = RedisCommands.send(redis, "TIME").get(0).toLong() * 1000;
            RedisCommands.send(redis, "HSET", "pacer:s:{overdue}", "next", Long.toString(redisNow - 90_000));
            // Resuming makes the job read its state at once, instead of at its next tick.
            scheduler.pause("overdue");
            scheduler.resume("overdue");
            await().atMost(Duration.ofSeconds(10)).until(() -> skipped("overdue", "overdue") == 2);
            assertThat(jobs.overdue.get()).isEqualTo(1);
            assertThat(runs("overdue", "success")).isEqualTo(1);
        } finally {
            jobs.release.countDown();
        }
    }

    private double runs(String job, String outcome) {
        return counter("pacer.scheduler.runs", job, "outcome", outcome);
    }

    private double skipped(String job, String reason) {
        return counter("pacer.scheduler.skipped", job, "reason", reason);
    }

    private double counter(String name, String job, String tag, String value) {
        var search = registry.find(name).tag("job", job);
        Counter counter = (tag == null ? search : search.tag(tag, value)).counter();
        assertThat(counter).as(name + " of " + job).isNotNull();
        return counter.count();
    }

    private Timer lateness(String job) {
        Timer timer = registry.find("pacer.scheduler.lateness").tag("job", job).timer();
        assertThat(timer).as("lateness of " + job).isNotNull();
        return timer;
    }
}
