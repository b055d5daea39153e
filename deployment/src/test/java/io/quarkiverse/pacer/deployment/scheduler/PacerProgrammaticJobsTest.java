package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.scheduler.SuccessfulExecution;
import io.quarkus.scheduler.Trigger;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;

/**
 * Programmatic {@code PACER} jobs: a job whose task is a class is stored in Redis, runs each tick once, is recreated
 * from its stored definition by an instance that did not schedule it (as at startup) and is stopped by every instance
 * once its definition is gone; a job whose task is an instance runs without being stored; wrong definitions fail.
 */
class PacerProgrammaticJobsTest {

    private static final String JOBS = "pacer:s:jobs";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Ticks.class, CountingTask.class, AsyncCountingTask.class,
                    NotOnOddSeconds.class, RedisCommands.class,
                    VirtualThreads.class));

    /** Where the tasks, instantiated by the scheduler, report. */
    @Singleton
    static class Ticks {
        final List<String> runs = new CopyOnWriteArrayList<>();
        final List<String> succeeded = new CopyOnWriteArrayList<>();

        void add(String id, ScheduledExecution execution) {
            runs.add(id + "@" + execution.getScheduledFireTime().toEpochMilli());
        }

        List<Long> of(String id) {
            List<Long> ticks = new ArrayList<>();
            for (String run : runs) {
                if (run.startsWith(id + "@")) {
                    ticks.add(Long.parseLong(run.substring(id.length() + 1)));
                }
            }
            return ticks;
        }

        void onSuccess(@ObservesAsync SuccessfulExecution success) {
            succeeded.add(success.getExecution().getTrigger().getId());
        }
    }

    /** Not a bean: instantiated with its no-arg constructor, as Quarkus does. */
    public static class CountingTask implements Consumer<ScheduledExecution> {
        @Override
        public void accept(ScheduledExecution execution) {
            io.quarkus.arc.Arc.container().instance(Ticks.class).get().add(execution.getTrigger().getId(), execution);
        }
    }

    /** A bean: the scheduler takes the bean. */
    @ApplicationScoped
    static class AsyncCountingTask implements Function<ScheduledExecution, Uni<Void>> {
        @Inject
        Ticks ticks;

        @Override
        public Uni<Void> apply(ScheduledExecution execution) {
            ticks.add(execution.getTrigger().getId(), execution);
            return Uni.createFrom().voidItem();
        }
    }

    public static class NotOnOddSeconds implements Scheduled.SkipPredicate {
        @Override
        public boolean test(ScheduledExecution execution) {
            return execution.getScheduledFireTime().getEpochSecond() % 2 == 1;
        }
    }

    @Inject
    Scheduler scheduler;

    @Inject
    Ticks ticks;

    @Inject
    PacerRedis redis;

    @Test
    void classTaskIsStoredRunsOnceAndIsUnscheduledEverywhere() {
        Trigger trigger = scheduler.newJob("stored").setInterval("1s").setExecuteWith("PACER")
                .setTask(CountingTask.class).schedule();
        assertThat(trigger.getId()).isEqualTo("stored");
        assertThat(scheduler.getScheduledJob("stored")).isNotNull();
        JsonObject stored = new JsonObject(RedisCommands.send(redis, "HGET", JOBS, "stored").toString());
        assertThat(stored.getString("task")).isEqualTo(CountingTask.class.getName());
        assertThat(stored.getJsonObject("scheduled").getString("every")).isEqualTo("1s");
        // Owned by unscheduleJob: no time to live.
        assertThat(RedisCommands.send(redis, "PTTL", JOBS).toLong()).isEqualTo(-1);

        await().atMost(Duration.ofSeconds(30)).until(() -> ticks.of("stored").size() >= 3);
        List<Long> runs = ticks.of("stored");
        assertThat(runs).doesNotHaveDuplicates().isSorted();
        for (int i = 1; i < runs.size(); i++) {
            assertThat(runs.get(i) - runs.get(i - 1)).as("ticks %s", runs).isEqualTo(1000);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> ticks.succeeded.contains("stored"));
        assertThat(RedisCommands.send(redis, "HGET", "pacer:s:{stored}", "spec").toString()).isEqualTo("every:1000");

        // The same identity again fails, as with Quarkus's schedulers.
        assertThatThrownBy(() -> scheduler.newJob("stored").setInterval("1s").setExecuteWith("PACER")
                .setTask(CountingTask.class).schedule())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("A job with this identity is already scheduled: stored");

        // Another instance (or this one after a restart) runs the job from its stored definition alone.
        JsonObject copy = stored.copy();
        copy.getJsonObject("scheduled").put("identity", "recreated");
        copy.remove("task");
        copy.put("asyncTask", AsyncCountingTask.class.getName());
        copy.put("skipPredicate", NotOnOddSeconds.class.getName());
        RedisCommands.send(redis, "HSET", JOBS, "recreated", copy.encode());
        await().atMost(Duration.ofSeconds(30)).until(() -> ticks.of("recreated").size() >= 2);
        assertThat(ticks.of("recreated")).doesNotHaveDuplicates().allMatch(tick -> tick / 1000 % 2 == 0);
        assertThat(scheduler.getScheduledJob("recreated")).isNotNull();

        // Deleted by another instance's unscheduleJob: this instance stops it within a poll.
        RedisCommands.send(redis, "HDEL", JOBS, "recreated");
        await().atMost(Duration.ofSeconds(30)).until(() -> scheduler.getScheduledJob("recreated") == null);

        Trigger removed = scheduler.unscheduleJob("stored");
        assertThat(removed).isNotNull();
        assertThat(removed.getId()).isEqualTo("stored");
        assertThat(scheduler.getScheduledJob("stored")).isNull();
        assertThat(RedisCommands.send(redis, "HEXISTS", JOBS, "stored").toInteger()).isZero();
        assertThat(scheduler.unscheduleJob("stored")).isNull();
    }

    @Test
    void storedJobWithUnknownClassDoesNotRun() {
        JsonObject unknown = new JsonObject()
                .put("scheduled", new JsonObject().put("identity", "unknown").put("cron", "").put("every", "1s")
                        .put("delay", 0).put("delayUnit", "MINUTES").put("delayed", "").put("overdueGracePeriod", "")
                        .put("concurrentExecution", "PROCEED").put("timeZone", Scheduled.DEFAULT_TIMEZONE)
                        .put("executeWith", "PACER").put("executionMaxDelay", ""))
                .put("task", "com.acme.Missing");
        RedisCommands.send(redis, "HSET", JOBS, "unknown", unknown.encode());
        RedisCommands.send(redis, "HSET", JOBS, "garbage", "{not json");
        JsonObject known = unknown.copy().put("task", CountingTask.class.getName());
        known.getJsonObject("scheduled").put("identity", "known");
        RedisCommands.send(redis, "HSET", JOBS, "known", known.encode());
        // The poll that picks up "known" has looked at the other two as well.
        await().atMost(Duration.ofSeconds(30)).until(() -> scheduler.getScheduledJob("known") != null);
        assertThat(scheduler.getScheduledJob("unknown")).isNull();
        assertThat(scheduler.getScheduledJob("garbage")).isNull();
        // unscheduleJob deletes a stored job this instance could not run, too.
        assertThat(scheduler.unscheduleJob("unknown")).isNull();
        assertThat(RedisCommands.send(redis, "HEXISTS", JOBS, "unknown").toInteger()).isZero();
        assertThat(scheduler.unscheduleJob("known")).isNotNull();
        RedisCommands.send(redis, "HDEL", JOBS, "garbage");
    }

    @Test
    void instanceTaskRunsWithoutBeingStored() {
        List<Long> runs = new CopyOnWriteArrayList<>();
        Trigger trigger = scheduler.newJob("lambda").setInterval("1s").setExecuteWith("PACER")
                .setTask(execution -> runs.add(execution.getScheduledFireTime().toEpochMilli())).schedule();
        assertThat(trigger).isNotNull();
        await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= 2);
        assertThat(runs).doesNotHaveDuplicates();
        assertThat(RedisCommands.send(redis, "HEXISTS", JOBS, "lambda").toInteger()).isZero();
        assertThatThrownBy(() -> scheduler.newJob("lambda").setInterval("2s").setExecuteWith("PACER")
                .setTask(execution -> {
                }).schedule()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("A job with this identity is already scheduled: lambda");
        assertThat(scheduler.unscheduleJob("lambda")).isNotNull();
        assertThat(scheduler.getScheduledJob("lambda")).isNull();
    }

    @Test
    void virtualThreadTaskWithExecutionMaxDelay() {
        List<long[]> runs = new CopyOnWriteArrayList<>();
        List<Boolean> onVirtualThread = new CopyOnWriteArrayList<>();
        scheduler.newJob("virtual").setInterval("1s").setExecutionMaxDelay("500ms").setExecuteWith("PACER")
                .setTask(execution -> {
                    runs.add(new long[] { execution.getScheduledFireTime().toEpochMilli(), System.currentTimeMillis() });
                    onVirtualThread.add(VirtualThreads.current());
                }, true).schedule();
        await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= 2);
        assertThat(scheduler.unscheduleJob("virtual")).isNotNull();
        assertThat(onVirtualThread).containsOnly(VirtualThreads.available());
        assertThat(runs).extracting(run -> run[0]).doesNotHaveDuplicates();
        assertThat(runs).allSatisfy(run -> assertThat(run[1] - run[0]).isBetween(0L, 500L + 200L));
        // A stored job keeps its task's thread.
        scheduler.newJob("virtual-stored").setInterval("1h").setExecuteWith("PACER").setTask(CountingTask.class, true)
                .schedule();
        assertThat(new JsonObject(RedisCommands.send(redis, "HGET", JOBS, "virtual-stored").toString())
                .getBoolean("virtualThread")).isTrue();
        assertThat(scheduler.unscheduleJob("virtual-stored")).isNotNull();
    }

    @Test
    void wrongDefinitionsFail() {
        assertThatThrownBy(() -> scheduler.newJob("no-schedule").setExecuteWith("PACER").setTask(CountingTask.class)
                .schedule()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("either the 'cron' expression or the 'every' period must be set");
        assertThatThrownBy(() -> scheduler.newJob("no-task").setInterval("1s").setExecuteWith("PACER").schedule())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Either sync or async task must be set");
        assertThatThrownBy(() -> scheduler.newJob("bad-cron").setCron("not a cron").setExecuteWith("PACER")
                .setTask(CountingTask.class).schedule()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> scheduler.newJob("predicate-instance").setInterval("1s").setExecuteWith("PACER")
                .setTask(CountingTask.class).setSkipPredicate(execution -> false).schedule())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("give the skip predicate as a class");
        assertThatThrownBy(() -> scheduler.newJob(" ").setInterval("1s").setExecuteWith("PACER")
                .setTask(CountingTask.class).schedule()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be blank");
        assertThat(scheduler.newJob("off").setInterval("off").setExecuteWith("PACER").setTask(CountingTask.class)
                .schedule()).isNull();
        for (String id : List.of("no-schedule", "no-task", "bad-cron", "predicate-instance", "off")) {
            assertThat(scheduler.getScheduledJob(id)).as(id).isNull();
            assertThat(RedisCommands.send(redis, "HEXISTS", JOBS, id).toInteger()).as(id).isZero();
        }
    }
}
