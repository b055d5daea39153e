package io.quarkiverse.pacer.deployment.devui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringSchedules;
import io.quarkiverse.pacer.runtime.dev.ui.PacerDelayQueuesJsonRpcService;
import io.quarkiverse.pacer.runtime.dev.ui.PacerSchedulesJsonRpcService;
import io.quarkiverse.pacer.runtime.dev.ui.PacerThrottlingJsonRpcService;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Every JSON-RPC method of the Dev UI pages, called on the service beans (registered here as Dev UI registers them in
 * dev mode): effective policies with sources, decision counts, key inspector and reset; queue depths with an
 * unconsumed queue marked, browsing, deliver now, cancel, replay, purge and test messages; PACER jobs and recurring
 * schedules with their state in Redis, pause, resume, run and trigger now.
 */
class PacerJsonRpcServiceTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Orders.class, Order.class, Jobs.class,
                    RedisInfo.class, RedisCommands.class))
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .overrideConfigKey("quarkus.pacer.throttle.\"rpc-global\".limit", "3")
            .overrideConfigKey("quarkus.pacer.throttle.\"rpc-global\".window", "1h")
            .overrideConfigKey("quarkus.pacer.throttle.\"rpc-bucket\".limit", "50")
            .addBuildChainCustomizer(chain -> chain.addBuildStep(context -> context.produce(
                    AdditionalBeanBuildItem.builder()
                            .addBeanClasses(PacerThrottlingJsonRpcService.class, PacerDelayQueuesJsonRpcService.class,
                                    PacerSchedulesJsonRpcService.class)
                            .setUnremovable()
                            .setDefaultScope(BuiltinScope.SINGLETON.getName()).build()))
                    .produces(AdditionalBeanBuildItem.class).build());

    private static final Duration WAIT = Duration.ofSeconds(10);

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "rpc-window", limit = 2, window = "1m", algorithm = Algorithm.FIXED_WINDOW)
        @Throttled(name = "rpc-bucket", limit = 10, window = "1h")
        public String search(@ThrottleKey String tenant) {
            return "results for " + tenant;
        }

        @Throttled(name = "rpc-global", limit = 5, window = "1h")
        public String ping() {
            return "pong";
        }
    }

    public record Order(long id) {
    }

    @Singleton
    static class Orders {
        final List<Long> received = new CopyOnWriteArrayList<>();

        @Delayed(value = "rpc-queue", maxAttempts = 1)
        void expire(Order order) {
            received.add(order.id());
            if (order.id() == 13) {
                throw new IllegalStateException("unlucky order 13");
            }
        }
    }

    /** Two PACER jobs whose ticks do not come during the test, and the queue of a recurring schedule. */
    @Singleton
    static class Jobs {
        final AtomicInteger hourlyRuns = new AtomicInteger();
        final List<String> reminders = new CopyOnWriteArrayList<>();

        @Scheduled(every = "1h", delayed = "1h", identity = "rpc-hourly", executeWith = "PACER")
        void hourly() {
            hourlyRuns.incrementAndGet();
        }

        @Scheduled(cron = "0 0 3 * * ?", timeZone = "Europe/Paris", identity = "rpc-nightly", executeWith = "PACER")
        void nightly() {
            throw new IllegalStateException("the nightly job failed");
        }

        @Delayed("rpc-reminders")
        void remind(String text) {
            reminders.add(text);
        }
    }

    @Inject
    PacerThrottlingJsonRpcService throttling;

    @Inject
    PacerSchedulesJsonRpcService schedules;

    @Inject
    Jobs jobs;

    @Inject
    Scheduler scheduler;

    @Inject
    RecurringSchedules recurring;

    @Inject
    PacerRedis redis;

    @Inject
    PacerDelayQueuesJsonRpcService delayQueues;

    @Inject
    Api api;

    @Inject
    Orders orders;

    @Inject
    DelayedQueue queue;

    private static <T> T result(Uni<T> uni) {
        return uni.await().atMost(WAIT);
    }

    @Test
    void policiesShowEffectiveValuesWithSources() {
        JsonArray policies = throttling.getPolicies();
        assertThat(policies.size()).isEqualTo(3);

        JsonObject bucket = policies.getJsonObject(0);
        assertThat(bucket.getString("name")).isEqualTo("rpc-bucket");
        assertThat(bucket.getString("algorithm")).isEqualTo("TOKEN_BUCKET");
        assertThat(bucket.getInteger("limit")).isEqualTo(50);
        assertThat(bucket.getString("window")).isEqualTo("1h");
        assertThat(bucket.getInteger("burst")).isEqualTo(50);
        assertThat(bucket.getString("declaredOn")).isEqualTo(Api.class.getName() + "#search()");
        JsonObject bucketSources = bucket.getJsonObject("sources");
        assertThat(bucketSources.getString("limit")).isEqualTo("quarkus.pacer.throttle.\"rpc-bucket\".limit");
        assertThat(bucketSources.getString("window")).isEqualTo("@Throttled on " + Api.class.getName() + "#search()");
        assertThat(bucketSources.getString("burst")).isEqualTo("default (= limit)");

        JsonObject global = policies.getJsonObject(1);
        assertThat(global.getString("name")).isEqualTo("rpc-global");
        assertThat(global.getInteger("limit")).isEqualTo(3);
        assertThat(global.getJsonObject("sources").getString("limit"))
                .isEqualTo("quarkus.pacer.throttle.\"rpc-global\".limit");
        assertThat(global.getJsonObject("sources").getString("window"))
                .isEqualTo("quarkus.pacer.throttle.\"rpc-global\".window");

        JsonObject window = policies.getJsonObject(2);
        assertThat(window.getString("name")).isEqualTo("rpc-window");
        assertThat(window.getString("algorithm")).isEqualTo("FIXED_WINDOW");
        assertThat(window.getInteger("limit")).isEqualTo(2);
        assertThat(window.containsKey("burst")).as("no burst for a window algorithm").isFalse();
        assertThat(window.getJsonObject("sources").containsKey("burst")).isFalse();
        assertThat(window.getJsonArray("usedBy").getList()).containsExactly(Api.class.getName() + "#search(java.lang.String)");
    }

    @Test
    void runtimeOverridesShowTheirSourceAndAreSetAndCleared() {
        try {
            assertThat(result(throttling.setOverride("rpc-global", "7", "2m", "", "", "true")).getBoolean("override"))
                    .isTrue();
            JsonObject global = policies().get("rpc-global");
            assertThat(global.getInteger("limit")).isEqualTo(7);
            assertThat(global.getDouble("windowMillis")).isEqualTo(120_000.0);
            assertThat(global.getBoolean("shadow")).isTrue();
            assertThat(global.getJsonObject("sources").getString("limit")).isEqualTo("runtime override");
            assertThat(global.getJsonObject("sources").getString("window")).isEqualTo("runtime override");
            assertThat(global.getJsonObject("sources").getString("shadow")).isEqualTo("runtime override");
            assertThat(global.getJsonObject("override").getInteger("limit")).isEqualTo(7);
            assertThat(global.getJsonObject("override").getLong("windowMillis")).isEqualTo(120_000L);
            assertThat(global.getJsonObject("override").getValue("burst")).isNull();
        } finally {
            result(throttling.clearOverride("rpc-global"));
        }
        JsonObject global = policies().get("rpc-global");
        assertThat(global.getInteger("limit")).isEqualTo(3);
        assertThat(global.getValue("override")).isNull();
        assertThat(global.getJsonObject("sources").getString("limit"))
                .isEqualTo("quarkus.pacer.throttle.\"rpc-global\".limit");
        assertThatThrownBy(() -> result(throttling.setOverride("rpc-window", "0", "", "", "", "")))
                .hasMessageContaining("limit must be positive");
    }

    private Map<String, JsonObject> policies() {
        Map<String, JsonObject> byName = new TreeMap<>();
        throttling.getPolicies().forEach(row -> byName.put(((JsonObject) row).getString("name"), (JsonObject) row));
        return byName;
    }

    @Test
    void countsDecisionsInspectsAndResetsKeys() {
        api.search("acme");
        api.search("acme");
        assertThatThrownBy(() -> api.search("acme")).isInstanceOf(ThrottledException.class);
        api.ping();

        JsonArray counts = throttling.getDecisionCounts();
        assertThat(counts.getJsonObject(0).getMap()).containsEntry("policy", "rpc-bucket")
                .containsEntry("permitted", 2L).containsEntry("rejected", 0L).containsEntry("rejectedByOther", 1L)
                .containsEntry("fallback", 0L);
        assertThat(counts.getJsonObject(1).getMap()).containsEntry("policy", "rpc-global")
                .containsEntry("permitted", 1L).containsEntry("rejected", 0L);
        assertThat(counts.getJsonObject(2).getMap()).containsEntry("policy", "rpc-window")
                .containsEntry("permitted", 2L).containsEntry("rejected", 1L).containsEntry("rejectedByOther", 0L);

        JsonArray inspected = result(throttling.inspectKey("acme"));
        assertThat(inspected.size()).isEqualTo(3);
        assertThat(inspected.getJsonObject(0).getString("policy")).isEqualTo("rpc-bucket");
        assertThat(inspected.getJsonObject(0).getLong("remaining")).isEqualTo(48);
        assertThat(inspected.getJsonObject(0).getBoolean("allowed")).isTrue();
        assertThat(inspected.getJsonObject(0).getBoolean("global")).isFalse();
        JsonObject globalState = inspected.getJsonObject(1);
        assertThat(globalState.getString("policy")).isEqualTo("rpc-global");
        assertThat(globalState.getBoolean("global")).as("peeked at the global key, whatever the key typed").isTrue();
        assertThat(globalState.getString("key")).isEmpty();
        assertThat(globalState.getLong("remaining")).isEqualTo(2);
        JsonObject windowState = inspected.getJsonObject(2);
        assertThat(windowState.getString("policy")).isEqualTo("rpc-window");
        assertThat(windowState.getLong("remaining")).isZero();
        assertThat(windowState.getBoolean("allowed")).isFalse();
        assertThat(windowState.getDouble("retryAfterMillis")).isPositive();
        assertThat(result(throttling.inspectKey("other")).getJsonObject(2).getLong("remaining")).isEqualTo(2);

        JsonObject reset = result(throttling.resetKey("rpc-window", "acme"));
        assertThat(reset.getBoolean("reset")).isTrue();
        assertThat(result(throttling.inspectKey("acme")).getJsonObject(2).getLong("remaining")).isEqualTo(2);
        assertThat(api.search("acme")).isEqualTo("results for acme");
        assertThatThrownBy(() -> result(throttling.resetKey("no-such-policy", "acme")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown throttling policy");
    }

    @Test
    void listsQueuesBrowsesAndActs() {
        queue.scheduleWithId("rpc-queue", "w-1", new Order(1), Duration.ofHours(1));
        queue.scheduleWithId("rpc-queue", "w-2", new Order(2), Duration.ofHours(2));
        queue.scheduleWithId("rpc-queeu", "typo-1", new Order(3), Duration.ofHours(1));

        JsonArray queues = result(delayQueues.getQueues());
        assertThat(queues.size()).isEqualTo(3);
        assertThat(queues.getJsonObject(2).getString("queue")).isEqualTo("rpc-reminders");
        JsonObject typo = queues.getJsonObject(0);
        assertThat(typo.getString("queue")).isEqualTo("rpc-queeu");
        assertThat(typo.getString("consumer")).isNull();
        assertThat(typo.getBoolean("consumedHere")).isFalse();
        assertThat(typo.getLong("scheduled")).isEqualTo(1);
        JsonObject consumed = queues.getJsonObject(1);
        assertThat(consumed.getString("queue")).isEqualTo("rpc-queue");
        assertThat(consumed.getString("consumer")).isEqualTo(Orders.class.getName() + "#expire");
        assertThat(consumed.getBoolean("consumedHere")).isTrue();
        assertThat(consumed.getInteger("maxAttempts")).isEqualTo(1);
        assertThat(consumed.getLong("scheduled")).isEqualTo(2);
        assertThat(consumed.getLong("overdue")).isZero();
        assertThat(consumed.getLong("oldestOverdueMillis")).isEqualTo(-1);
        assertThat(consumed.getLong("delivered")).isZero();

        JsonArray waiting = result(delayQueues.getWaitingMessages("rpc-queue", 10));
        assertThat(waiting.size()).isEqualTo(2);
        assertThat(waiting.getJsonObject(0).getString("id")).isEqualTo("w-1");
        assertThat(waiting.getJsonObject(0).getString("payload")).isEqualTo("{\"id\":1}");
        assertThat(waiting.getJsonObject(1).getString("id")).isEqualTo("w-2");
        assertThat(result(delayQueues.getWaitingMessages("rpc-queue", 1)).size()).isEqualTo(1);

        assertThat(result(delayQueues.deliverNow("rpc-queue", "w-1")).getLong("count")).isEqualTo(1);
        await().atMost(WAIT).until(() -> orders.received.contains(1L));
        assertThat(result(delayQueues.cancel("rpc-queue", "w-2")).getLong("count")).isEqualTo(1);
        assertThat(result(delayQueues.cancel("rpc-queue", "w-2")).getLong("count")).isZero();
        await().atMost(WAIT).until(() -> result(delayQueues.getWaitingMessages("rpc-queue", 10)).isEmpty());

        JsonObject scheduled = result(delayQueues.scheduleTestMessage("rpc-queue", "t-13", "{\"id\": 13}", 0));
        assertThat(scheduled.getString("id")).isEqualTo("t-13");
        JsonArray dead = awaitDeadLetters(1);
        assertThat(dead.getJsonObject(0).getString("id")).isEqualTo("t-13");
        assertThat(dead.getJsonObject(0).getString("reason"))
                .isEqualTo("java.lang.IllegalStateException: unlucky order 13");
        assertThat(dead.getJsonObject(0).getInteger("attempts")).isEqualTo(1);
        assertThat(dead.getJsonObject(0).getString("payload")).isEqualTo("{\"id\": 13}");

        assertThat(result(delayQueues.replay("rpc-queue", "t-13")).getLong("count")).isEqualTo(1);
        await().atMost(WAIT).until(() -> orders.received.stream().filter(id -> id == 13).count() == 2);
        awaitDeadLetters(1);
        assertThat(result(delayQueues.replayAll("rpc-queue")).getLong("count")).isEqualTo(1);
        await().atMost(WAIT).until(() -> orders.received.stream().filter(id -> id == 13).count() == 3);
        awaitDeadLetters(1);
        assertThat(result(delayQueues.purge("rpc-queue", "t-13")).getLong("count")).isEqualTo(1);
        awaitDeadLetters(0);

        result(delayQueues.scheduleTestMessage("rpc-queue", "", "{\"id\": 13}", 0));
        awaitDeadLetters(1);
        assertThat(result(delayQueues.purgeAll("rpc-queue")).getLong("count")).isEqualTo(1);
        awaitDeadLetters(0);
        JsonObject after = result(delayQueues.getQueues()).getJsonObject(1);
        assertThat(after.getLong("delivered")).isEqualTo(1);
        assertThat(after.getLong("deadLettered")).isEqualTo(4);

        assertThatThrownBy(() -> result(delayQueues.scheduleTestMessage("rpc-queue", "bad", "{oops", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a JSON " + Order.class.getName());
        assertThat(result(delayQueues.getWaitingMessages("rpc-queue", 10))).isEmpty();
    }

    @Test
    void listsPacerJobsAndRecurringSchedulesAndActs() {
        // Each job stores its first fire time with its first read of Redis, just after startup.
        await().atMost(WAIT).until(() -> result(schedules.getJobs()).getJsonArray("jobs").stream()
                .allMatch(job -> ((JsonObject) job).getValue("nextFireTime") != null));
        JsonObject listed = result(schedules.getJobs());
        assertThat(listed.getBoolean("available")).isTrue();
        JsonArray rows = listed.getJsonArray("jobs");
        assertThat(rows.size()).isEqualTo(2);
        JsonObject hourly = rows.getJsonObject(0);
        assertThat(hourly.getString("identity")).isEqualTo("rpc-hourly");
        assertThat(hourly.getString("method")).isEqualTo(Jobs.class.getName() + "#hourly");
        assertThat(hourly.getBoolean("programmatic")).isFalse();
        assertThat(hourly.getLong("everyMillis")).isEqualTo(3_600_000L);
        assertThat(hourly.getString("cron")).isNull();
        assertThat(hourly.getLong("nextFireTime")).as("as stored in Redis")
                .isEqualTo(Long.parseLong(RedisCommands.send(redis, "HGET", "pacer:s:{rpc-hourly}", "next").toString()));
        assertThat(hourly.getLong("nextFireTime") - hourly.getLong("redisNow")).isBetween(0L, 3_600_000L);
        assertThat(hourly.getValue("lastClaimedTick")).isNull();
        assertThat(hourly.getBoolean("paused")).isFalse();
        assertThat(hourly.getValue("runningSince")).isNull();
        assertThat(hourly.getLong("runsHere")).isZero();
        assertThat(hourly.getValue("lastOutcome")).isNull();
        JsonObject nightly = rows.getJsonObject(1);
        assertThat(nightly.getString("identity")).isEqualTo("rpc-nightly");
        assertThat(nightly.getString("cron")).isEqualTo("0 0 3 * * ?");
        assertThat(nightly.getString("zone")).isEqualTo("Europe/Paris");
        assertThat(nightly.getValue("everyMillis")).isNull();
        assertThat(nightly.getLong("nextFireTime"))
                .isEqualTo(Long.parseLong(RedisCommands.send(redis, "HGET", "pacer:s:{rpc-nightly}", "next").toString()));

        // Pause and resume go to Redis: the Scheduler API reads them back from there.
        assertThat(schedules.pauseJob("rpc-nightly").getBoolean("paused")).isTrue();
        assertThat(scheduler.isPaused("rpc-nightly")).isTrue();
        assertThat(RedisCommands.send(redis, "HGET", "pacer:s:{rpc-nightly}", "paused").toString()).isEqualTo("1");
        assertThat(result(schedules.getJobs()).getJsonArray("jobs").getJsonObject(1).getBoolean("paused")).isTrue();
        assertThat(schedules.resumeJob("rpc-nightly").getBoolean("paused")).isFalse();
        assertThat(scheduler.isPaused("rpc-nightly")).isFalse();

        // Run now: the method once, here, and its outcome; a failure names the exception.
        assertThat(schedules.runJobNow("rpc-hourly").getBoolean("started")).isTrue();
        await().atMost(WAIT).until(() -> result(schedules.getJobs()).getJsonArray("jobs").getJsonObject(0)
                .getJsonObject("lastOutcome") != null);
        assertThat(jobs.hourlyRuns.get()).isEqualTo(1);
        JsonObject ran = result(schedules.getJobs()).getJsonArray("jobs").getJsonObject(0);
        assertThat(ran.getJsonObject("lastOutcome").getString("result")).isEqualTo("SUCCESS");
        assertThat(ran.getJsonObject("lastOutcome").getBoolean("byHand")).isTrue();
        assertThat(ran.getValue("lastClaimedTick")).as("no tick claimed").isNull();
        assertThat(ran.getLong("nextFireTime")).isEqualTo(hourly.getLong("nextFireTime"));
        schedules.runJobNow("rpc-nightly");
        await().atMost(WAIT).until(() -> result(schedules.getJobs()).getJsonArray("jobs").getJsonObject(1)
                .getJsonObject("lastOutcome") != null);
        JsonObject failed = result(schedules.getJobs()).getJsonArray("jobs").getJsonObject(1).getJsonObject("lastOutcome");
        assertThat(failed.getString("result")).isEqualTo("FAILURE");
        assertThat(failed.getString("message")).isEqualTo("java.lang.IllegalStateException: the nightly job failed");
        assertThatThrownBy(() -> schedules.pauseJob("no-such-job")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No PACER job no-such-job on this instance");
        assertThat(jobs.hourlyRuns.get()).isEqualTo(1);

        // Recurring schedules.
        Instant next = recurring.upsert(RecurringDelivery.every("rpc-recurring", Duration.ofHours(2))
                .deliver("rpc-reminders", "stand up"));
        JsonArray recurringRows = result(schedules.getRecurringSchedules());
        assertThat(recurringRows.size()).isEqualTo(1);
        assertThat(recurringRows.getJsonObject(0).getMap()).containsEntry("id", "rpc-recurring")
                .containsEntry("queue", "rpc-reminders").containsEntry("everyMillis", 7_200_000L)
                .containsEntry("cron", null).containsEntry("zone", null).containsEntry("overdueGracePeriodMillis", null)
                .containsEntry("nextFireTime", next.toEpochMilli()).containsEntry("paused", false)
                .containsEntry("payload", "stand up").containsEntry("truncated", false);
        assertThat(result(schedules.pauseRecurring("rpc-recurring")).getBoolean("found")).isTrue();
        assertThat(recurring.get("rpc-recurring").orElseThrow().paused()).isTrue();
        assertThat(result(schedules.getRecurringSchedules()).getJsonObject(0).getBoolean("paused")).isTrue();
        assertThat(result(schedules.resumeRecurring("rpc-recurring")).getBoolean("found")).isTrue();
        assertThat(recurring.get("rpc-recurring").orElseThrow().paused()).isFalse();
        JsonObject triggered = result(schedules.triggerRecurringNow("rpc-recurring"));
        assertThat(triggered.getBoolean("found")).isTrue();
        assertThat(triggered.getString("messageId")).startsWith("rpc-recurring@now-");
        await().atMost(WAIT).until(() -> !jobs.reminders.isEmpty());
        assertThat(jobs.reminders).containsExactly("stand up");
        assertThat(result(schedules.triggerRecurringNow("no-such-schedule")).getBoolean("found")).isFalse();
        assertThat(result(schedules.pauseRecurring("no-such-schedule")).getBoolean("found")).isFalse();
    }

    private JsonArray awaitDeadLetters(int count) {
        await().atMost(WAIT).until(() -> result(delayQueues.getDeadLetters("rpc-queue", 10)).size() == count);
        return result(delayQueues.getDeadLetters("rpc-queue", 10));
    }
}
