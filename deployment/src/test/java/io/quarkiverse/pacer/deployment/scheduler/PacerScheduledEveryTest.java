package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.scheduler.DelayedExecution;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.scheduler.SkippedExecution;
import io.quarkus.scheduler.Trigger;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * {@code @Scheduled(every = "1s", executeWith = "PACER")}: the ticks sit on a one-second grid stored in Redis, each run
 * gets its tick's scheduled fire time, blocking methods run on a worker thread and {@code Uni} and
 * {@code CompletionStage} ones on the event loop and {@code @RunOnVirtualThread} ones on a virtual thread, an
 * {@code executionMaxDelay} delays each run within it, a {@code skipExecutionIf} predicate skips its ticks; pause
 * and resume are stored in Redis; the Scheduler API lists the jobs.
 */
class PacerScheduledEveryTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class, RedisCommands.class, VirtualThreads.class));

    @Singleton
    static class Jobs {
        final List<Long> ticks = new CopyOnWriteArrayList<>();
        final List<Boolean> blockingOnEventLoop = new CopyOnWriteArrayList<>();
        final List<Long> uniTicks = new CopyOnWriteArrayList<>();
        final List<Boolean> uniOnEventLoop = new CopyOnWriteArrayList<>();

        @Scheduled(every = "1s", identity = "every-second", executeWith = "PACER")
        void tick(ScheduledExecution execution) {
            blockingOnEventLoop.add(Context.isOnEventLoopThread());
            ticks.add(execution.getScheduledFireTime().toEpochMilli());
        }

        @Scheduled(every = "1s", identity = "uni-every-second", executeWith = "PACER")
        Uni<Void> uniTick(ScheduledExecution execution) {
            uniOnEventLoop.add(Context.isOnEventLoopThread());
            uniTicks.add(execution.getScheduledFireTime().toEpochMilli());
            return Uni.createFrom().voidItem();
        }

        final List<Boolean> stageOnEventLoop = new CopyOnWriteArrayList<>();
        final List<Long> predicateTicks = new CopyOnWriteArrayList<>();

        @Scheduled(every = "1s", identity = "stage-every-second", executeWith = "PACER")
        CompletionStage<Void> stageTick() {
            stageOnEventLoop.add(Context.isOnEventLoopThread());
            return CompletableFuture.completedStage(null);
        }

        @Scheduled(every = "1s", identity = "always-skipped", executeWith = "PACER", skipExecutionIf = AlwaysSkip.class)
        void neverRuns() {
            throw new IllegalStateException("skipExecutionIf returned true");
        }

        void onSkipped(@Observes SkippedExecution skipped) {
            if (skipped.getExecution().getTrigger().getId().equals("always-skipped")) {
                predicateTicks.add(skipped.getExecution().getScheduledFireTime().toEpochMilli());
            }
        }

        @Scheduled(every = "1s", identity = "local-every-second")
        void local() {
        }

        /** Scheduled fire time, then start, of each run of the jittered job (epoch millis). */
        final List<long[]> jittered = new CopyOnWriteArrayList<>();
        final Map<Long, Long> delays = new ConcurrentHashMap<>();
        final List<Boolean> onVirtualThread = new CopyOnWriteArrayList<>();
        final List<Boolean> virtualOnEventLoop = new CopyOnWriteArrayList<>();

        @Scheduled(every = "1s", identity = "jittered-every-second", executionMaxDelay = "500ms", executeWith = "PACER")
        void jittered(ScheduledExecution execution) {
            jittered.add(new long[] { execution.getScheduledFireTime().toEpochMilli(), System.currentTimeMillis() });
        }

        void onDelayed(@Observes DelayedExecution delayed) {
            if (delayed.getExecution().getTrigger().getId().equals("jittered-every-second")) {
                delays.put(delayed.getExecution().getScheduledFireTime().toEpochMilli(), delayed.getDelay());
            }
        }

        @RunOnVirtualThread
        @Scheduled(every = "1s", identity = "virtual-every-second", executeWith = "PACER")
        void virtual() {
            onVirtualThread.add(VirtualThreads.current());
            virtualOnEventLoop.add(Context.isOnEventLoopThread());
        }
    }

    @Singleton
    static class AlwaysSkip implements Scheduled.SkipPredicate {
        @Override
        public boolean test(ScheduledExecution execution) {
            return true;
        }
    }

    @Inject
    Jobs jobs;

    @Inject
    Scheduler scheduler;

    @Inject
    PacerRedis redis;

    @Test
    void eachTickOnceOnTheGrid() {
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.ticks.size() >= 3 && jobs.uniTicks.size() >= 3);
        List<Long> ticks = new ArrayList<>(jobs.ticks);
        assertThat(ticks).doesNotHaveDuplicates().isSorted();
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(ticks.get(i) - ticks.get(i - 1)).as("ticks %s", ticks).isEqualTo(1000);
        }
        assertThat(jobs.blockingOnEventLoop).containsOnly(false);
        assertThat(jobs.uniOnEventLoop).containsOnly(true);
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.stageOnEventLoop.size() >= 2
                && jobs.predicateTicks.size() >= 2);
        assertThat(jobs.stageOnEventLoop).containsOnly(true);
        assertThat(jobs.predicateTicks).doesNotHaveDuplicates();
        String key = "pacer:s:{every-second}";
        assertThat(RedisCommands.send(redis, "PTTL", key).toLong()).isPositive();
        assertThat(RedisCommands.send(redis, "HGET", key, "spec").toString()).isEqualTo("every:1000");
    }

    @Test
    void executionMaxDelayDelaysEachRunOnceWithinIt() {
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.jittered.size() >= 3);
        List<long[]> runs = new ArrayList<>(jobs.jittered);
        for (int i = 1; i < runs.size(); i++) {
            assertThat(runs.get(i)[0] - runs.get(i - 1)[0]).as("ticks").isEqualTo(1000);
        }
        for (long[] run : runs) {
            long tick = run[0];
            long late = run[1] - tick;
            // The instance claims the tick when it is due, then waits its random delay (below 500 ms) before the run;
            // how much later than that the run starts depends on the machine's load, so only the delay is checked.
            assertThat(late).as("start of the run of %d", tick).isNotNegative();
            if (jobs.delays.containsKey(tick)) {
                assertThat(jobs.delays.get(tick)).isBetween(1L, 499L);
                assertThat(late).as("start of the run of %d", tick).isGreaterThanOrEqualTo(jobs.delays.get(tick));
            }
        }
    }

    @Test
    void runOnVirtualThread() {
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.onVirtualThread.size() >= 2);
        assertThat(jobs.onVirtualThread).containsOnly(VirtualThreads.available());
        assertThat(jobs.virtualOnEventLoop).containsOnly(false);
    }

    @Test
    void pauseAndResumeAreStoredInRedis() {
        scheduler.pause("uni-every-second");
        assertThat(scheduler.isPaused("uni-every-second")).isTrue();
        assertThat(RedisCommands.send(redis, "HGET", "pacer:s:{uni-every-second}", "paused").toString()).isEqualTo("1");
        scheduler.resume("uni-every-second");
        assertThat(scheduler.isPaused("uni-every-second")).isFalse();
        int before = jobs.uniTicks.size();
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.uniTicks.size() > before);
        // A SIMPLE job is not the PACER scheduler's: pausing it stays local, nothing in Redis.
        scheduler.pause("local-every-second");
        assertThat(scheduler.isPaused("local-every-second")).isTrue();
        assertThat(RedisCommands.send(redis, "EXISTS", "pacer:s:{local-every-second}").toInteger()).isZero();
        scheduler.resume("local-every-second");
    }

    @Test
    void schedulerApi() {
        Trigger trigger = scheduler.getScheduledJob("every-second");
        assertThat(trigger).isNotNull();
        assertThat(trigger.getMethodDescription()).isEqualTo(Jobs.class.getName() + "#tick");
        await().atMost(Duration.ofSeconds(30)).until(() -> trigger.getNextFireTime() != null);
        assertThat(scheduler.getScheduledJobs()).extracting(Trigger::getId)
                .contains("every-second", "uni-every-second", "local-every-second");
        assertThat(scheduler.isRunning()).isTrue();
    }
}
