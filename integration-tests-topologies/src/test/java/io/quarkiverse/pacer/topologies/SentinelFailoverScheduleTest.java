package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringSchedules;
import io.quarkiverse.pacer.devservices.common.RedisProcess;
import io.quarkiverse.pacer.test.support.BusyCore;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.test.support.SentinelPrimary;
import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Three {@code PACER} jobs and one recurring schedule, every second, through a Sentinel failover ({@code kill -9} of
 * the primary) and one minute on the promoted primary left without any replica: one of the two replicas is killed
 * first, so the primary has one, which the sentinels promote; the old primary stays down, and one core is kept busy by
 * another process from the kill to the end of the minute. With the default {@code durability=primary}, neither the
 * jobs nor the recurring schedule's deliveries wait for a replica. The instance never dies, so no run is taken over and
 * no tick runs twice. The jobs with a grace period longer than the failover (30 s) and the recurring schedule (30 s
 * too) lose no tick: those due during the failover run late, once, and so does every tick of the degraded minute. The
 * job with the default grace period (1 s) skips the ticks of the failover, exactly as many as its
 * {@code pacer.scheduler.skipped{reason=overdue}} counts.
 */
class SentinelFailoverScheduleTest {

    static final List<String> GRACED = List.of("graced-a", "graced-b");
    static final String DEFAULT_GRACE = "default-grace";
    static final String RECURRING = "recurring";
    static final List<String> SERIES = List.of("graced-a", "graced-b", DEFAULT_GRACE, RECURRING);
    static final long PERIOD = 1_000;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-micrometer-registry-prometheus-deployment",
                    Version.getVersion())))
            .withApplicationRoot(jar -> jar.addClasses(Ticks.class, RedisInfo.class, SentinelPrimary.class, BusyCore.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "sentinel")
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            // Failed Redis calls and dropped connections of the jobs and schedules, to tell an outage from a starved JVM.
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.pacer.runtime.redis\".level", "DEBUG")
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.pacer.runtime.scheduler\".level", "DEBUG")
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.pacer.runtime.delay.recurring\".level", "DEBUG");

    /** Every run or delivery, by series and tick (its scheduled fire time, epoch millis). */
    @Singleton
    static class Ticks {
        final Map<String, NavigableMap<Long, AtomicInteger>> runs = new ConcurrentHashMap<>();
        /** When each tick first ran, by series and tick (JVM clock; the JVM and Redis share the machine's clock). */
        final Map<String, Map<Long, Long>> ranAt = new ConcurrentHashMap<>();

        /** The recurring schedule starts with the application, as the jobs do: the healthy ticks need no wait. */
        void start(@Observes StartupEvent event, RecurringSchedules schedules) {
            schedules.upsert(RecurringDelivery.every(RECURRING, Duration.ofSeconds(1)).deliver("failover-ticks", "tick")
                    .withOverdueGracePeriod(Duration.ofSeconds(30)));
        }

        @Scheduled(every = "1s", identity = "graced-a", executeWith = "PACER", overdueGracePeriod = "30s")
        void gracedA(ScheduledExecution execution) {
            record("graced-a", execution.getScheduledFireTime());
        }

        @Scheduled(every = "1s", identity = "graced-b", executeWith = "PACER", overdueGracePeriod = "30s")
        void gracedB(ScheduledExecution execution) {
            record("graced-b", execution.getScheduledFireTime());
        }

        @Scheduled(every = "1s", identity = DEFAULT_GRACE, executeWith = "PACER")
        void defaultGrace(ScheduledExecution execution) {
            record(DEFAULT_GRACE, execution.getScheduledFireTime());
        }

        @Delayed("failover-ticks")
        void delivered(DelayedMessage<String> message) {
            // The message id is "<schedule id>@<tick>", the same however often the tick is fired or delivered.
            record(RECURRING, Instant.parse(message.id().substring(message.id().indexOf('@') + 1)));
        }

        private void record(String series, Instant tick) {
            runs.computeIfAbsent(series, s -> new ConcurrentSkipListMap<>())
                    .computeIfAbsent(tick.toEpochMilli(), t -> new AtomicInteger()).incrementAndGet();
            ranAt.computeIfAbsent(series, s -> new ConcurrentHashMap<>()).putIfAbsent(tick.toEpochMilli(),
                    System.currentTimeMillis());
        }

        NavigableMap<Long, AtomicInteger> of(String series) {
            return runs.getOrDefault(series, new ConcurrentSkipListMap<>());
        }

        /** The latest a tick in [from, to) first ran after its fire time, in millis. */
        long maxLateness(String series, long from, long to) {
            return of(series).subMap(from, to).keySet().stream().mapToLong(tick -> ranAt.get(series).get(tick) - tick)
                    .max().orElse(0);
        }

        boolean allRanAtOrAfter(long tick) {
            return SERIES.stream().allMatch(series -> of(series).ceilingKey(tick) != null);
        }
    }

    @Inject
    Ticks ticks;

    @Inject
    MeterRegistry registry;

    @Test
    void everyTickRunsOnceThroughAFailoverAndAMinuteOnAPromotedPrimaryWithoutReplica() throws Exception {
        List<Integer> sentinels = SentinelPrimary.sentinelPorts();
        int oldPrimary = SentinelPrimary.primaryPort(sentinels.get(0));
        // One replica only: the other is killed, and the sentinels never promote it.
        List<Integer> replicas = SentinelPrimary.replicaPorts(oldPrimary);
        assertThat(replicas).hasSize(2);
        int spare = replicas.get(0);
        int survivor = replicas.get(1);
        SentinelPrimary.kill(spare);

        // How late a JVM thread that only sleeps 10 ms at a time wakes up: a long one means the machine starved the JVM.
        AtomicLong longestStall = new AtomicLong();
        Thread stallProbe = new Thread(() -> {
            long before = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                longestStall.accumulateAndGet((now - before) / 1_000_000 - 10, Math::max);
                before = now;
            }
        }, "stall-probe");
        stallProbe.setDaemon(true);
        stallProbe.start();

        // Healthy: three ticks of each, and every sentinel sees the killed replica down.
        await().atMost(Duration.ofSeconds(60))
                .until(() -> SERIES.stream().allMatch(series -> ticks.of(series).size() >= 3)
                        && sentinels.stream().allMatch(sentinel -> SentinelPrimary.replicaDown(sentinel, spare)));

        // One core busy from the kill to the end of the degraded minute, as on a shared production host.
        try (BusyCore busy = BusyCore.start()) {
            long killedAt = System.currentTimeMillis();
            SentinelPrimary.kill(oldPrimary);
            await().atMost(Duration.ofSeconds(60)).until(() -> SentinelPrimary.primaryPort(sentinels.get(0)) != oldPrimary);
            long promotedAt = System.currentTimeMillis();
            assertThat(SentinelPrimary.primaryPort(sentinels.get(0))).as("the promoted replica").isEqualTo(survivor);

            // The first tick the default-grace job ran after the kill: the scheduler reaches the promoted primary. The
            // degraded minute is the sixty ticks from there on, with the old primary and the other replica still down.
            await().atMost(Duration.ofSeconds(60)).until(() -> ticks.of(DEFAULT_GRACE).ceilingKey(killedAt) != null);
            long resumed = ticks.of(DEFAULT_GRACE).ceilingKey(killedAt);
            long end = resumed + 60 * PERIOD;
            // Every series ran a tick after the minute (so each tick before it was claimed, and a lost lease would have
            // expired and run again by now, 10 s after the failover).
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ticks.allRanAtOrAfter(end + PERIOD));
            assertThat(SentinelPrimary.primaryPort(sentinels.get(0))).as("still the promoted primary").isEqualTo(survivor);
            String replication = RedisProcess.command(survivor, "INFO", "replication");
            assertThat(RedisInfo.field(replication, "role")).as("the promoted replica's role").isEqualTo("master");
            assertThat(RedisInfo.field(replication, "connected_slaves")).as("replicas of the promoted primary")
                    .isEqualTo("0");

            stallProbe.interrupt();
            long back = ticks.ranAt.get(DEFAULT_GRACE).get(resumed) - killedAt;
            Counter skippedMeter = registry.find("pacer.scheduler.skipped").tag("job", DEFAULT_GRACE).tag("reason", "overdue")
                    .counter();
            long skippedCounted = skippedMeter == null ? 0 : (long) skippedMeter.count();
            Map<String, Series> all = new LinkedHashMap<>();
            for (String series : SERIES) {
                all.put(series, Series.of(ticks, series, killedAt, resumed, end));
            }
            System.out.printf("Sentinel failover, 3 PACER jobs and 1 recurring schedule every second, the promoted primary"
                    + " without replica, one core busy: promoted after %d ms,"
                    + " ticks run again %d ms after the kill; healthy: %s ticks, late by up to %s ms; during the failover: %s;"
                    + " degraded minute:"
                    + " %s ticks, late by up to %s ms; ticks run twice: %d; default-grace skipped %d (counted %d);"
                    + " longest JVM stall %d ms%n",
                    promotedAt - killedAt, back, each(all, s -> s.healthy), each(all, s -> s.healthyLateness),
                    each(all, s -> s.outage + " (late by up to "
                            + s.outageLateness + " ms" + (s.missing.isEmpty() ? "" : ", " + s.missing.size() + " skipped")
                            + ")"),
                    each(all, s -> s.degraded), each(all, s -> s.degradedLateness),
                    all.values().stream().mapToLong(s -> s.doubled.size()).sum(), all.get(DEFAULT_GRACE).missing.size(),
                    skippedCounted, longestStall.get());

            for (Series s : all.values()) {
                assertThat(s.doubled).as("%s: ticks that ran more than once", s.name).isEmpty();
                assertThat(s.offGrid).as("%s: ticks off the one-second grid of the first", s.name).isEmpty();
                if (s.name.equals(DEFAULT_GRACE)) {
                    // Missed by more than its 1 s grace while Redis was unreachable: skipped, each counted once. (A JVM
                    // stalled for more than a second on a loaded machine skips more ticks, counted the same way.)
                    assertThat(s.missing).as("the ticks the default-grace job skipped").isNotEmpty()
                            .anyMatch(tick -> tick > killedAt - PERIOD && tick < resumed);
                    assertThat(skippedCounted).as("pacer.scheduler.skipped{reason=overdue}").isEqualTo(s.missing.size());
                    assertThat(s.degraded + s.missing.stream().filter(tick -> tick >= resumed && tick < end).count())
                            .as("%s: ticks of the degraded minute, run or skipped", s.name).isEqualTo(60);
                } else {
                    // Within the 30 s grace: run late, none lost; the degraded minute: sixty ticks, each once.
                    assertThat(s.missing).as("%s: ticks never run", s.name).isEmpty();
                    assertThat(s.degraded).as("%s: ticks of the degraded minute", s.name).isEqualTo(60);
                }
            }
        }
    }

    private static String each(Map<String, Series> all, Function<Series, Object> value) {
        return all.values().stream().map(s -> s.name + " " + value.apply(s)).collect(Collectors.joining(", "));
    }

    /** The ticks of one series up to the end of the degraded minute, by phase. */
    record Series(String name, long healthy, long outage, long degraded, long healthyLateness, long outageLateness,
            long degradedLateness,
            List<Long> doubled, List<Long> offGrid, List<Long> missing) {

        static Series of(Ticks ticks, String name, long killedAt, long resumed, long end) {
            NavigableMap<Long, AtomicInteger> runs = new ConcurrentSkipListMap<>(ticks.of(name).headMap(end));
            long first = runs.firstKey();
            List<Long> doubled = runs.entrySet().stream().filter(e -> e.getValue().get() != 1).map(Map.Entry::getKey)
                    .toList();
            List<Long> offGrid = runs.keySet().stream().filter(tick -> (tick - first) % PERIOD != 0).toList();
            List<Long> missing = new ArrayList<>();
            for (long tick = first; tick <= runs.lastKey(); tick += PERIOD) {
                if (!runs.containsKey(tick)) {
                    missing.add(tick);
                }
            }
            return new Series(name, runs.headMap(killedAt).size(), runs.subMap(killedAt, resumed).size(),
                    runs.subMap(resumed, end).size(), ticks.maxLateness(name, first, killedAt),
                    ticks.maxLateness(name, killedAt, resumed),
                    ticks.maxLateness(name, resumed, end), doubled, offGrid, missing);
        }
    }
}
