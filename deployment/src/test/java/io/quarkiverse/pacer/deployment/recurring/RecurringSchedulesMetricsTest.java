package io.quarkiverse.pacer.deployment.recurring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringSchedules;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With Micrometer, the ticks of recurring schedules are counted per target delay queue (never per schedule): each
 * fired tick once, with its lateness, and not {@code triggerNow}; ticks missed beyond the grace period as skipped
 * {@code overdue}; a pending tick whose instance died as a takeover, and one started too often as skipped
 * {@code dropped}. Each scenario has its own queue, so each count is exact.
 */
class RecurringSchedulesMetricsTest {

    static final String PENDING = "pacer:r:{recurring}:pending";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-micrometer-registry-prometheus-deployment",
                    Version.getVersion())))
            .withApplicationRoot(jar -> jar.addClasses(Consumers.class, RedisCommands.class));

    @Singleton
    static class Consumers {
        final List<String> ticks = new CopyOnWriteArrayList<>();
        final List<Instant> late = new CopyOnWriteArrayList<>();
        final List<String> crashed = new CopyOnWriteArrayList<>();

        @Delayed("metered-ticks")
        void tick(DelayedMessage<String> message) {
            ticks.add(message.id());
        }

        @Delayed("late-ticks")
        void late(DelayedMessage<String> message) {
            late.add(message.dueAt());
        }

        @Delayed("crashed-ticks")
        void crashed(DelayedMessage<String> message) {
            crashed.add(message.id());
        }

        long ticksOf(String schedule) {
            return ticks.stream().filter(id -> id.startsWith(schedule + "@") && !id.contains("@now-")).count();
        }
    }

    @Inject
    Consumers consumers;

    @Inject
    RecurringSchedules schedules;

    @Inject
    MeterRegistry registry;

    @Inject
    PacerRedis redis;

    @Test
    void eachFiredTickCountsOnceWithItsLatenessAndTriggerNowDoesNot() {
        schedules.upsert(RecurringDelivery.every("metered", Duration.ofSeconds(1)).deliver("metered-ticks", "tick"));
        String now = schedules.triggerNow("metered").orElseThrow();
        await().atMost(Duration.ofSeconds(15)).until(() -> consumers.ticksOf("metered") >= 3);
        assertThat(schedules.delete("metered")).isTrue();
        // A tick fired just before the delete is still stored and delivered.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(counter("pacer.recurring.fires", "metered-ticks", null, null))
                    .isEqualTo(consumers.ticksOf("metered"));
            assertThat(lateness("metered-ticks").count()).isEqualTo(consumers.ticksOf("metered"));
            assertThat(consumers.ticks).contains(now);
        });
        // Never later than the default grace period, or the tick would have been skipped.
        assertThat(lateness("metered-ticks").max(TimeUnit.MILLISECONDS)).isLessThanOrEqualTo(1000);
        assertThat(counter("pacer.recurring.takeovers", "metered-ticks", null, null)).isZero();
        assertThat(counter("pacer.recurring.skipped", "metered-ticks", "reason", "overdue")).isZero();
        assertThat(counter("pacer.recurring.skipped", "metered-ticks", "reason", "dropped")).isZero();
    }

    @Test
    void ticksMissedBeyondTheGracePeriodCountAsSkipped() {
        Instant next = schedules.upsert(RecurringDelivery.every("late", Duration.ofSeconds(1))
                .deliver("late-ticks", "l").withOverdueGracePeriod(Duration.ofMillis(1500)));
        schedules.pause("late");
        // As if the schedule had been paused (or every instance down) for ten seconds.
        long old = next.toEpochMilli() - 10_000;
        RedisCommands.send(redis, "HSET", "pacer:r:{recurring}:paused", "late", Long.toString(old));
        schedules.resume("late");
        await().atMost(Duration.ofSeconds(10)).until(() -> !consumers.late.isEmpty());
        assertThat(schedules.delete("late")).isTrue();
        // Every tick before the first one delivered was skipped, in one step.
        long first = consumers.late.stream().mapToLong(Instant::toEpochMilli).min().orElseThrow();
        long skipped = (first - old) / 1000;
        assertThat(skipped).isPositive();
        assertThat(counter("pacer.recurring.skipped", "late-ticks", "reason", "overdue")).isEqualTo(skipped);
        assertThat(counter("pacer.recurring.skipped", "late-ticks", "reason", "dropped")).isZero();
    }

    @Test
    void aTickTakenOverFromADeadInstanceAndOneStartedTooOftenAreCounted() {
        Instant next = schedules.upsert(RecurringDelivery.every("crashed", Duration.ofHours(1))
                .deliver("crashed-ticks", "c"));
        long tick = next.toEpochMilli() - Duration.ofHours(1).toMillis();
        // Left behind by instances that died between firing a tick and storing its message, leases expired: one
        // started once (taken over and stored here), one started three times already (dropped).
        RedisCommands.send(redis, "ZADD", PENDING, "0", tick + ":1:crashed");
        RedisCommands.send(redis, "ZADD", PENDING, "0", (tick - 3_600_000) + ":3:crashed");
        RedisCommands.send(redis, "PUBLISH", "pacer:r:{recurring}:wake", "0");
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.crashed.size() == 1
                && RedisCommands.send(redis, "ZCARD", PENDING).toInteger() == 0);
        assertThat(consumers.crashed).containsExactly("crashed@" + Instant.ofEpochMilli(tick));
        assertThat(schedules.delete("crashed")).isTrue();
        assertThat(counter("pacer.recurring.takeovers", "crashed-ticks", null, null)).isEqualTo(1);
        assertThat(counter("pacer.recurring.skipped", "crashed-ticks", "reason", "dropped")).isEqualTo(1);
        assertThat(counter("pacer.recurring.fires", "crashed-ticks", null, null)).isZero();
        assertThat(registry.find("pacer.recurring.lateness").tag("queue", "crashed-ticks").timer().count()).isZero();
    }

    private double counter(String name, String queue, String tag, String value) {
        var search = registry.find(name).tag("queue", queue);
        Counter counter = (tag == null ? search : search.tag(tag, value)).counter();
        assertThat(counter).as(name + " of " + queue).isNotNull();
        return counter.count();
    }

    private Timer lateness(String queue) {
        Timer timer = registry.find("pacer.recurring.lateness").tag("queue", queue).timer();
        assertThat(timer).as("lateness of " + queue).isNotNull();
        return timer;
    }
}
