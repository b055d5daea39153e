package io.quarkiverse.pacer.deployment.recurring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.ReactiveRecurringSchedules;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringDeliveryState;
import io.quarkiverse.pacer.delay.RecurringSchedules;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Recurring schedules deliver to {@code @Delayed} consumers: one message per tick, on the grid, with the id
 * {@code <schedule>@<tick>}, however many threads upsert the same schedule; pause, resume, trigger now, list, get and
 * delete act on the data in Redis; of many instances moving a schedule on, one succeeds; a tick whose instance died
 * before storing it is stored by another; ticks missed beyond the grace period are skipped; bad input is refused
 * naming the problem.
 */
class RecurringSchedulesTest {

    static final String DEFINITIONS = "pacer:r:{recurring}";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumers.class, Received.class, Report.class,
                    RedisCommands.class));

    record Received(String id, Object payload, Instant dueAt) {
    }

    public record Report(long customer) {
    }

    @Singleton
    static class Consumers {
        final List<Received> received = new CopyOnWriteArrayList<>();

        @Delayed("ticks")
        void tick(DelayedMessage<String> message) {
            received.add(new Received(message.id(), message.payload(), message.dueAt()));
        }

        @Delayed("reports")
        void report(DelayedMessage<Report> message) {
            received.add(new Received(message.id(), message.payload(), message.dueAt()));
        }

        /** The messages of one schedule (the payload is the schedule's id on queue "ticks"), by tick. */
        List<Received> of(String schedule) {
            List<Received> of = new ArrayList<>();
            for (Received r : received) {
                if (r.id().startsWith(schedule + "@")) {
                    of.add(r);
                }
            }
            of.sort(Comparator.comparing(Received::dueAt));
            return of;
        }
    }

    @Inject
    Consumers consumers;

    @Inject
    RecurringSchedules schedules;

    @Inject
    ReactiveRecurringSchedules reactiveSchedules;

    @Inject
    PacerRedis redis;

    private static RecurringDelivery everySecond(String id) {
        return RecurringDelivery.every(id, Duration.ofSeconds(1)).deliver("ticks", id);
    }

    /** Each tick once, consecutive on a one-second grid from the returned first fire time, ids from schedule and tick. */
    private static void assertOncePerTick(String id, List<Received> messages, Instant first) {
        assertThat(messages).extracting(Received::id).doesNotHaveDuplicates();
        assertThat(messages.get(0).dueAt()).isEqualTo(first);
        for (int i = 0; i < messages.size(); i++) {
            Received message = messages.get(i);
            assertThat(message.id()).isEqualTo(id + "@" + message.dueAt());
            assertThat(message.payload()).isEqualTo(id);
            assertThat(message.dueAt()).as("ticks %s", messages).isEqualTo(first.plusSeconds(i));
        }
    }

    @Test
    void everySecondDeliversEachTickOnce() {
        Instant first = schedules.upsert(everySecond("every-second"));
        await().atMost(Duration.ofSeconds(15)).until(() -> consumers.of("every-second").size() >= 4);
        assertThat(schedules.delete("every-second")).isTrue();
        assertOncePerTick("every-second", consumers.of("every-second"), first);
    }

    @Test
    void concurrentUpsertsLeaveOneScheduleAndOneMessagePerTick() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(50);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Instant>> upserts = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                upserts.add(pool.submit(() -> {
                    start.await();
                    return schedules.upsert(everySecond("concurrent"));
                }));
            }
            start.countDown();
            HashSet<Instant> firsts = new HashSet<>();
            for (Future<Instant> upsert : upserts) {
                firsts.add(upsert.get(30, TimeUnit.SECONDS));
            }
            assertThat(firsts).as("every upsert sees the same first tick").hasSize(1);
            assertThat(schedules.list()).filteredOn(state -> state.id().equals("concurrent")).hasSize(1);
            await().atMost(Duration.ofSeconds(15)).until(() -> consumers.of("concurrent").size() >= 3);
            // Upserting the unchanged schedule again later does not move its grid either.
            Instant next = schedules.get("concurrent").orElseThrow().nextFireTime();
            assertThat(schedules.upsert(everySecond("concurrent"))).isEqualTo(next);
            assertThat(schedules.delete("concurrent")).isTrue();
            assertOncePerTick("concurrent", consumers.of("concurrent"), firsts.iterator().next());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void pauseStopsDeliveriesAndResumeRestartsThemOnTheGrid() {
        Instant first = schedules.upsert(everySecond("pausable"));
        await().atMost(Duration.ofSeconds(15)).until(() -> consumers.of("pausable").size() >= 1);
        assertThat(schedules.pause("pausable")).isTrue();
        assertThat(schedules.pause("pausable")).as("pausing twice").isTrue();
        assertThat(schedules.get("pausable").orElseThrow().paused()).isTrue();
        assertThat(RedisCommands.send(redis, "ZSCORE", DEFINITIONS + ":due", "pausable").toDouble()).isInfinite();
        // Another schedule's ticks show the firing instance kept running meanwhile.
        schedules.upsert(everySecond("barrier"));
        await().atMost(Duration.ofSeconds(15)).until(() -> consumers.of("barrier").size() >= 2);
        int paused = consumers.of("pausable").size();
        await().atMost(Duration.ofSeconds(15)).until(() -> consumers.of("barrier").size() >= 4);
        assertThat(consumers.of("pausable")).hasSize(paused);

        assertThat(schedules.resume("pausable")).isTrue();
        assertThat(schedules.get("pausable").orElseThrow().paused()).isFalse();
        await().atMost(Duration.ofSeconds(15)).until(() -> consumers.of("pausable").size() >= paused + 2);
        schedules.delete("pausable");
        schedules.delete("barrier");
        List<Received> ticks = consumers.of("pausable");
        assertThat(ticks).extracting(Received::id).doesNotHaveDuplicates();
        for (Received tick : ticks) {
            assertThat(Duration.between(first, tick.dueAt()).toMillis() % 1000).as("on the grid: %s", ticks).isZero();
        }
    }

    @Test
    void triggerNowDeliversOnceWithoutMovingTheGrid() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        RecurringDelivery weekly = RecurringDelivery.cron("weekly-42", "0 0 8 ? * MON", paris)
                .deliver("reports", new Report(42));
        Instant next = schedules.upsert(weekly);
        ZonedDateTime local = next.atZone(paris);
        assertThat(local.getDayOfWeek()).isEqualTo(DayOfWeek.MONDAY);
        assertThat(local.toLocalTime()).isEqualTo(LocalTime.of(8, 0));

        String messageId = schedules.triggerNow("weekly-42").orElseThrow();
        assertThat(messageId).startsWith("weekly-42@now-");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> consumers.received.stream().anyMatch(r -> r.id().equals(messageId)));
        assertThat(consumers.of("weekly-42")).singleElement().extracting(Received::payload).isEqualTo(new Report(42));
        assertThat(schedules.get("weekly-42").orElseThrow().nextFireTime()).isEqualTo(next);
        assertThat(schedules.upsert(weekly)).as("unchanged: same next fire time").isEqualTo(next);
        assertThat(schedules.triggerNow("no-such-schedule")).isEmpty();
        assertThat(schedules.delete("weekly-42")).isTrue();
    }

    @Test
    void listGetUpsertAndDeleteActOnRedis() {
        Instant nextA = schedules.upsert(RecurringDelivery.every("list-a", Duration.ofHours(1)).deliver("ticks", "a"));
        Instant nextB = reactiveSchedules.upsert(RecurringDelivery.cron("list-b", "0 0 8 ? * MON", ZoneId.of("UTC"))
                .deliver("reports", new Report(7)).withOverdueGracePeriod(Duration.ofHours(6)))
                .await().atMost(Duration.ofSeconds(10));
        assertThat(schedules.pause("list-b")).isTrue();

        RecurringDeliveryState a = schedules.get("list-a").orElseThrow();
        assertThat(a.delivery().every()).isEqualTo(Duration.ofHours(1));
        assertThat(a.delivery().queue()).isEqualTo("ticks");
        assertThat(a.delivery().payload()).isEqualTo("a");
        assertThat(a.delivery().overdueGracePeriod()).isEmpty();
        assertThat(a.paused()).isFalse();
        assertThat(a.nextFireTime()).isEqualTo(nextA);
        RecurringDeliveryState b = reactiveSchedules.get("list-b").await().atMost(Duration.ofSeconds(10));
        assertThat(b.delivery().cron()).isEqualTo("0 0 8 ? * MON");
        assertThat(b.delivery().zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(b.delivery().payload()).as("as stored: JSON").isEqualTo("{\"customer\":7}");
        assertThat(b.delivery().overdueGracePeriod()).contains(Duration.ofHours(6));
        assertThat(b.paused()).isTrue();
        assertThat(b.nextFireTime()).isEqualTo(nextB);
        assertThat(schedules.list()).filteredOn(state -> state.id().startsWith("list-"))
                .extracting(RecurringDeliveryState::id).containsExactly("list-a", "list-b");

        // A new payload keeps the grid, a new timing starts over; a paused schedule stays paused when upserted.
        assertThat(schedules.upsert(RecurringDelivery.every("list-a", Duration.ofHours(1)).deliver("ticks", "a2")))
                .isEqualTo(nextA);
        assertThat(schedules.get("list-a").orElseThrow().delivery().payload()).isEqualTo("a2");
        assertThat(schedules.upsert(RecurringDelivery.every("list-a", Duration.ofHours(2)).deliver("ticks", "a2")))
                .isAfter(nextA);
        schedules.upsert(b.delivery());
        assertThat(schedules.get("list-b").orElseThrow().paused()).isTrue();

        assertThat(schedules.delete("list-a")).isTrue();
        assertThat(schedules.delete("list-b")).isTrue();
        assertThat(schedules.delete("list-b")).isFalse();
        assertThat(schedules.get("list-a")).isEmpty();
        assertThat(schedules.list()).noneMatch(state -> state.id().startsWith("list-"));
        for (String id : List.of("list-a", "list-b")) {
            assertThat(RedisCommands.send(redis, "HEXISTS", DEFINITIONS, id).toInteger()).isZero();
            assertThat(RedisCommands.send(redis, "ZSCORE", DEFINITIONS + ":due", id)).isNull();
            assertThat(RedisCommands.send(redis, "HEXISTS", DEFINITIONS + ":paused", id).toInteger()).isZero();
        }
        assertThat(RedisCommands.send(redis, "PTTL", DEFINITIONS).toLong()).as("no TTL, or no key").isLessThan(0);
    }

    @Test
    void ofManyInstancesMovingTheSameScheduleOnExactlyOneSucceeds() {
        Instant next = schedules.upsert(RecurringDelivery.every("raced", Duration.ofHours(1)).deliver("ticks",
                "raced"));
        // 50 firing instances that all read the schedule at `next` race to move it on (recurring-fire.lua).
        List<String> keys = List.of(DEFINITIONS, DEFINITIONS + ":due", DEFINITIONS + ":paused",
                DEFINITIONS + ":pending");
        long moved = next.toEpochMilli() + Duration.ofHours(1).toMillis();
        List<String> args = List.of("30000", "raced", Long.toString(next.toEpochMilli()), "every:3600000",
                Long.toString(moved), "");
        LuaScript fire = LuaScript.load("recurring-fire");
        List<Uni<Integer>> racers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            racers.add(redis.eval(fire, keys, args).map(reply -> reply.get(1).get(0).toInteger()));
        }
        List<Integer> outcomes = Uni.join().all(racers).andFailFast().await().atMost(Duration.ofSeconds(10));
        assertThat(outcomes).filteredOn(outcome -> outcome == 1).hasSize(1);
        assertThat(schedules.get("raced").orElseThrow().nextFireTime()).isEqualTo(Instant.ofEpochMilli(moved));
        assertThat(schedules.delete("raced")).isTrue();
    }

    @Test
    void aTickWhoseInstanceDiedBeforeStoringItIsStoredByAnother() {
        Instant next = schedules.upsert(RecurringDelivery.every("crashed", Duration.ofHours(1)).deliver("ticks",
                "crashed"));
        long tick = next.toEpochMilli() - Duration.ofHours(1).toMillis();
        // What an instance leaves behind when it dies between firing a tick and storing its message: a pending tick,
        // whose lease has expired.
        String member = tick + ":1:crashed";
        RedisCommands.send(redis, "ZADD", DEFINITIONS + ":pending", "0", member);
        RedisCommands.send(redis, "PUBLISH", DEFINITIONS + ":wake", "0");
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.of("crashed").size() == 1);
        Received redone = consumers.of("crashed").get(0);
        assertThat(redone.id()).isEqualTo("crashed@" + Instant.ofEpochMilli(tick));
        assertThat(redone.dueAt()).isEqualTo(Instant.ofEpochMilli(tick));
        await().atMost(Duration.ofSeconds(10)).until(() -> RedisCommands.send(redis, "ZCARD",
                DEFINITIONS + ":pending").toInteger() == 0);
        assertThat(schedules.delete("crashed")).isTrue();
    }

    @Test
    void ticksMissedBeyondTheGracePeriodAreSkipped() {
        Instant next = schedules.upsert(everySecond("late").withOverdueGracePeriod(Duration.ofMillis(1500)));
        schedules.pause("late");
        // As if the schedule had been paused (or every instance down) for ten seconds.
        long old = next.toEpochMilli() - 10_000;
        RedisCommands.send(redis, "HSET", DEFINITIONS + ":paused", "late", Long.toString(old));
        schedules.resume("late");
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.of("late").size() >= 2);
        schedules.delete("late");
        List<Received> ticks = consumers.of("late");
        assertThat(ticks).extracting(Received::id).doesNotHaveDuplicates();
        // Resumed about a second before `next`: only ticks within 1.5 s of that (and later ones) are delivered.
        assertThat(ticks.get(0).dueAt()).isAfterOrEqualTo(next.minusMillis(3000));
        assertThat((ticks.get(0).dueAt().toEpochMilli() - old) % 1000).isZero();
    }

    @Test
    void badInputIsRefusedNamingTheProblem() {
        assertThatThrownBy(() -> RecurringDelivery.every(" ", Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("A recurring schedule id must not be blank");
        assertThatThrownBy(() -> RecurringDelivery.every("fast", Duration.ofMillis(500)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The period of recurring schedule fast must be at least PT1S, was PT0.5S");
        assertThatThrownBy(() -> RecurringDelivery.every("x", Duration.ofSeconds(1)).deliver(" ", "p"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The delay queue of recurring schedule x must not be blank");
        assertThatThrownBy(() -> RecurringDelivery.every("x", Duration.ofSeconds(1)).deliver("ticks", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The payload of recurring schedule x must not be null");
        assertThatThrownBy(() -> schedules.upsert(RecurringDelivery.cron("bad-cron", "0 0 25 * * ?", ZoneId.of("UTC"))
                .deliver("ticks", "p")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid cron expression \"0 0 25 * * ?\" of recurring schedule bad-cron");
        assertThatThrownBy(() -> schedules.upsert(RecurringDelivery.every("x", Duration.ofSeconds(1))
                .deliver("a{b}", "p")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Delay queue name must not contain '{' or '}': a{b}");
        assertThatThrownBy(() -> schedules.upsert(RecurringDelivery.every("x", Duration.ofSeconds(1))
                .deliver("reports", 42)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be scheduled on delay queue \"reports\"");
        assertThatThrownBy(() -> schedules.pause(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("A recurring schedule id must not be blank");
        assertThat(schedules.get("bad-cron")).isEmpty();
        assertThat(schedules.get("x")).isEmpty();
        assertThat(schedules.pause("no-such-schedule")).isFalse();
        assertThat(schedules.resume("no-such-schedule")).isFalse();
        assertThat(schedules.delete("no-such-schedule")).isFalse();
        assertThat(schedules.get("no-such-schedule")).isEqualTo(Optional.empty());
    }
}
