package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.scheduler.JobSnapshot;
import io.quarkiverse.pacer.runtime.scheduler.PacerScheduler;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.vertx.core.json.JsonObject;

/**
 * {@code quarkus.pacer.scheduler.default-implementation=true}: a {@code @Scheduled} method and a programmatic job that
 * choose no scheduler run with {@code PACER} (state in Redis, ticks on its grid, {@code @RunOnVirtualThread} on a
 * virtual thread); a method with {@code executeWith = Scheduled.SIMPLE} and Pacer's own safety poll stay on Quarkus's
 * in-memory scheduler; a delay queue still delivers.
 */
class PacerDefaultImplementationTest {

    private static final String POLL_JOB = "pacer-delayed-poll";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .overrideConfigKey("quarkus.pacer.scheduler.default-implementation", "true")
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class, Reminders.class, CountingTask.class,
                    RedisCommands.class, VirtualThreads.class));

    @Singleton
    static class Jobs {
        final List<Long> ticks = new CopyOnWriteArrayList<>();
        final List<Boolean> onVirtualThread = new CopyOnWriteArrayList<>();
        final List<Boolean> localRuns = new CopyOnWriteArrayList<>();

        @Scheduled(every = "1s", identity = "defaulted")
        void tick(ScheduledExecution execution) {
            ticks.add(execution.getScheduledFireTime().toEpochMilli());
        }

        @RunOnVirtualThread
        @Scheduled(every = "1s", identity = "defaulted-virtual")
        void virtual() {
            onVirtualThread.add(VirtualThreads.current());
        }

        @Scheduled(every = "1s", identity = "local", executeWith = Scheduled.SIMPLE)
        void local() {
            localRuns.add(true);
        }
    }

    @Singleton
    static class Reminders {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Delayed("default-impl-reminders")
        void remind(DelayedMessage<String> message) {
            received.add(message.payload());
        }
    }

    public static class CountingTask implements Consumer<ScheduledExecution> {
        @Override
        public void accept(ScheduledExecution execution) {
        }
    }

    @Inject
    Jobs jobs;

    @Inject
    Reminders reminders;

    @Inject
    Scheduler scheduler;

    @Inject
    @Any
    Instance<Scheduler> schedulers;

    @Inject
    DelayedQueue queue;

    @Inject
    PacerRedis redis;

    private Scheduler implementation(String name) {
        return schedulers.stream().filter(candidate -> candidate.implementation().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void methodWithoutExecuteWithRunsWithPacer() {
        Scheduler pacer = implementation("PACER");
        Scheduler simple = implementation(Scheduled.SIMPLE);
        assertThat(pacer.getScheduledJob("defaulted")).isNotNull();
        assertThat(simple.getScheduledJob("defaulted")).isNull();
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.ticks.size() >= 2);
        List<Long> ticks = new ArrayList<>(jobs.ticks);
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(ticks.get(i) - ticks.get(i - 1)).as("ticks %s", ticks).isEqualTo(1000);
        }
        assertThat(RedisCommands.send(redis, "HGET", "pacer:s:{defaulted}", "spec").toString()).isEqualTo("every:1000");

        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.onVirtualThread.size() >= 1);
        assertThat(pacer.getScheduledJob("defaulted-virtual")).isNotNull();
        assertThat(jobs.onVirtualThread).containsOnly(VirtualThreads.available());

        // The Dev UI's list: the PACER jobs only.
        assertThat(((PacerScheduler) pacer).snapshots().await().atMost(Duration.ofSeconds(10)))
                .extracting(JobSnapshot::id).containsExactly("defaulted", "defaulted-virtual");
    }

    @Test
    void simpleMethodAndPacersOwnPollStayPerInstance() {
        Scheduler pacer = implementation("PACER");
        Scheduler simple = implementation(Scheduled.SIMPLE);
        assertThat(simple.getScheduledJob("local")).isNotNull();
        assertThat(pacer.getScheduledJob("local")).isNull();
        assertThat(simple.getScheduledJob(POLL_JOB)).isNotNull();
        assertThat(pacer.getScheduledJob(POLL_JOB)).isNull();
        await().atMost(Duration.ofSeconds(30)).until(() -> !jobs.localRuns.isEmpty());
        assertThat(RedisCommands.send(redis, "EXISTS", "pacer:s:{local}", "pacer:s:{" + POLL_JOB + "}").toInteger())
                .isZero();
    }

    @Test
    void programmaticJobWithoutExecuteWithRunsWithPacer() {
        List<Long> runs = new CopyOnWriteArrayList<>();
        scheduler.newJob("defaulted-programmatic").setInterval("1s")
                .setTask(execution -> runs.add(execution.getScheduledFireTime().toEpochMilli())).schedule();
        assertThat(implementation("PACER").getScheduledJob("defaulted-programmatic")).isNotNull();
        assertThat(implementation(Scheduled.SIMPLE).getScheduledJob("defaulted-programmatic")).isNull();
        await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= 1);
        assertThat(scheduler.unscheduleJob("defaulted-programmatic")).isNotNull();

        // A stored job says it runs with PACER, whichever way PACER was chosen.
        scheduler.newJob("defaulted-stored").setInterval("1h").setTask(CountingTask.class).schedule();
        JsonObject stored = new JsonObject(RedisCommands.send(redis, "HGET", "pacer:s:jobs", "defaulted-stored").toString());
        assertThat(stored.getJsonObject("scheduled").getString("executeWith")).isEqualTo("PACER");
        assertThat(scheduler.unscheduleJob("defaulted-stored")).isNotNull();

        scheduler.newJob("opted-out").setInterval("1h").setExecuteWith(Scheduled.SIMPLE)
                .setTask(execution -> {
                }).schedule();
        assertThat(implementation(Scheduled.SIMPLE).getScheduledJob("opted-out")).isNotNull();
        assertThat(implementation("PACER").getScheduledJob("opted-out")).isNull();
        assertThat(scheduler.unscheduleJob("opted-out")).isNotNull();
    }

    @Test
    void delayQueueDelivers() {
        queue.schedule("default-impl-reminders", "call mum", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> reminders.received.contains("call mum"));
    }
}
