package io.quarkiverse.pacer.it.instances;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The promise of {@code @Scheduled(executeWith = "PACER")}: two instances of the packaged application run ten
 * schedules every second, and for a minute every tick of each runs exactly once across both: no tick twice, none
 * missed, on a one-second grid; both instances take ticks. Meanwhile a slow schedule (runs of three seconds) paused
 * through one instance is paused on the other, and resumed through the other it runs again. Then one instance is killed
 * ({@code kill -9}) while it runs ticks of the slow schedule: each run it was in the middle of runs again, once, on the
 * other instance when its lease expires; every other tick of the slow schedule, and every tick of the ten from the
 * start of the minute until after those runs again, ran exactly once, none missed (a tick of the ten runs twice only if
 * the killed instance was running it: at most as many as the survivor counts in {@code pacer.scheduler.reruns}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// The pause first (on the slow schedule, during the minute), the minute's count, the kill last.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoInstancesSchedulerIT {

    static final int JOBS = 10;
    /** The consecutive ticks of each job, with both instances up, that must each run exactly once: a minute. */
    static final int MINUTE_TICKS = 60;
    static final long PERIOD = 1_000;
    /** The newest ticks may still have a run in flight: the counts cover the ticks this much older than the newest. */
    static final long SETTLE_MILLIS = 2_000;

    private RedisServerProcess redis;
    private List<AppInstance> instances;
    /** When both instances were ready: the minute counts the ticks from here. */
    private long bothUp;
    private Map<String, Long> runsAtBothUp;
    /** The first slow tick after the resume: the kill scenario counts the slow ticks from there. */
    private long slowResumedFrom;

    @BeforeAll
    void start() throws Exception {
        redis = new RedisServerProcess().start();
        // Both at once: the minute starts when the second is ready.
        ExecutorService starting = Executors.newFixedThreadPool(2);
        try {
            List<Future<AppInstance>> started = new ArrayList<>();
            for (String name : List.of("first", "second")) {
                started.add(starting.submit(() -> new AppInstance(name, redis.uri(), "pacer.it.schedules.every=1s",
                        "pacer.it.slow.every=1s", "pacer.it.instance=" + name)));
            }
            List<AppInstance> ready = new ArrayList<>();
            Exception failure = null;
            for (Future<AppInstance> instance : started) {
                try {
                    ready.add(instance.get());
                } catch (ExecutionException e) {
                    failure = e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            instances = ready;
            if (failure != null) {
                throw failure;
            }
        } finally {
            starting.shutdown();
        }
        bothUp = System.currentTimeMillis();
        runsAtBothUp = counts(instances.get(0).get("/scheduling/instances"));
    }

    @AfterAll
    void stop() throws Exception {
        if (instances != null) {
            for (AppInstance instance : instances) {
                instance.close();
            }
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    @Order(1)
    void pauseAndResumeHoldOnEveryInstance() throws Exception {
        AppInstance first = instances.get(0);
        AppInstance second = instances.get(1);
        String job = "slow";
        await().atMost(Duration.ofSeconds(30)).until(() -> !ticks(first, job).isEmpty());
        first.post("/scheduling/pause/" + job);
        assertThat(second.get("/scheduling/paused/" + job)).isEqualTo("true");
        assertThat(first.get("/scheduling/paused/" + job)).isEqualTo("true");
        // At most a tick being claimed when the pause came starts; no tick starts afterwards while the others go on.
        int pausedAt = ticks(first, job).size();
        int otherAt = ticks(first, "tick-1").size();
        await().atMost(Duration.ofSeconds(30)).until(() -> ticks(first, "tick-1").size() >= otherAt + 3);
        assertThat(ticks(first, job).size()).isLessThanOrEqualTo(pausedAt + 1);

        second.post("/scheduling/resume/" + job);
        assertThat(first.get("/scheduling/paused/" + job)).isEqualTo("false");
        int resumedAt = ticks(first, job).size();
        await().atMost(Duration.ofSeconds(30)).until(() -> ticks(first, job).size() >= resumedAt + 2);
        Map<Long, Long> ticks = ticks(first, job);
        assertThat(ticks.values()).containsOnly(1L);
        // The pause left a gap of three ticks or more: the ticks after it are the resumed ones.
        long previous = Long.MIN_VALUE;
        for (long tick : ticks.keySet()) {
            if (previous != Long.MIN_VALUE && tick - previous > PERIOD) {
                slowResumedFrom = tick;
            }
            previous = tick;
        }
        assertThat(slowResumedFrom).as("the first slow tick after the pause's gap").isPositive();
    }

    @Test
    @Order(2)
    void everyTickRunsOnceForAMinuteAcrossBothInstances() throws Exception {
        AppInstance first = instances.get(0);
        await().atMost(Duration.ofSeconds(MINUTE_TICKS * 2)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            for (int job = 0; job < JOBS; job++) {
                if (settled(ticks(first, "tick-" + job), bothUp).size() < MINUTE_TICKS) {
                    return false;
                }
            }
            return true;
        });
        Map<String, Long> runs = new TreeMap<>(counts(first.get("/scheduling/instances")));
        runs.replaceAll((instance, count) -> count - runsAtBothUp.getOrDefault(instance, 0L));
        int fewest = Integer.MAX_VALUE;
        for (int job = 0; job < JOBS; job++) {
            Map<Long, Long> ticks = settled(ticks(first, "tick-" + job), bothUp);
            assertThat(ticks.size()).as("settled ticks of tick-%d with both instances up", job)
                    .isGreaterThanOrEqualTo(MINUTE_TICKS);
            assertEachOnceOnTheGrid(ticks, "tick-" + job, Set.of());
            fewest = Math.min(fewest, ticks.size());
        }
        assertThat(runs).containsOnlyKeys("first", "second");
        assertThat(runs.values()).allMatch(count -> count > 0);
        System.out.printf("Two instances, %d schedules every second: each job's ticks over %d consecutive seconds or"
                + " more ran once each, none missed; runs by instance while both were up %s; claims late by up to %d ms"
                + " (first) and %d ms (second)%n", JOBS, fewest, runs, maxLatenessMillis(first),
                maxLatenessMillis(instances.get(1)));
    }

    @Test
    @Order(3)
    void aRunWhoseInstanceIsKilledRunsAgainOnceOnTheOther() throws Exception {
        AppInstance first = instances.get(0);
        AppInstance second = instances.get(1);
        // Killed while it runs at least one slow tick, half-way between two ticks: the slow runs start on a tick and
        // last three seconds, so none is starting or ending at that instant on either side of the kill.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            Set<Long> running = runningOn(first, "second");
            long phase = Math.floorMod(System.currentTimeMillis() - slowResumedFrom, PERIOD);
            return !running.isEmpty() && phase >= 400 && phase <= 600;
        });
        second.kill();
        long killedAt = System.currentTimeMillis();
        Set<Long> killed = runningOn(first, "second");
        assertThat(killed).isNotEmpty();

        // Their leases expire (the default lease, renewed while a run lasts), and the first instance runs them again;
        // a run of the ten the killed instance was in the middle of runs again as well, at the same time.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> ticks(first, "slow-ended-first").keySet().containsAll(killed));
        // The lease expires 7 to 10 seconds after the kill (it was renewed up to 3 seconds before), so the ten have
        // ten settled ticks after the kill within a few seconds of the slow runs taken over ending.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> minTicksAfter(first, killedAt) >= 10);
        Map<String, Long> reruns = reruns(first);
        assertThat(reruns.getOrDefault("slow", 0L)).as("slow runs the first instance took over")
                .isEqualTo(killed.size());

        Map<Long, Long> slow = settled(ticks(first, "slow"), slowResumedFrom);
        assertThat(slow).containsKeys(killed.toArray(Long[]::new));
        assertEachOnceOnTheGrid(slow, "slow", killed);
        Map<Long, Long> startedOnFirst = ticks(first, "slow-started-first");
        for (long tick : killed) {
            assertThat(startedOnFirst.get(tick)).as("runs of killed tick %d on the first instance", tick).isEqualTo(1);
        }

        long seconds = Long.MAX_VALUE;
        long twice = 0;
        for (int job = 0; job < JOBS; job++) {
            String name = "tick-" + job;
            Map<Long, Long> ticks = settled(ticks(first, name), bothUp);
            assertThat(ticks.keySet().stream().filter(tick -> tick > killedAt).count())
                    .as("ticks of %s after the kill", name).isGreaterThanOrEqualTo(10);
            Set<Long> doubled = new TreeSet<>();
            ticks.forEach((tick, runs) -> {
                if (runs == 2) {
                    doubled.add(tick);
                }
            });
            // Twice only the ticks the killed instance was running: each run again once, here.
            assertThat((long) doubled.size()).as("ticks of %s run twice, at most its runs taken over", name)
                    .isLessThanOrEqualTo(reruns.getOrDefault(name, 0L));
            assertEachOnceOnTheGrid(ticks, name, doubled);
            seconds = Math.min(seconds, ticks.size());
            twice += doubled.size();
        }
        System.out.printf("One of two instances killed mid-run: %d schedules every second over %d s or more through the"
                + " kill: %d ticks ran twice (runs taken over: %d), the others once, none missed; slow schedule: of %d"
                + " ticks, %d ran twice (the runs it was in the middle of: %d, each run again on the other instance),"
                + " the others once, none missed; runs taken over %s%n", JOBS, seconds, twice,
                reruns.entrySet().stream().filter(e -> !e.getKey().equals("slow")).mapToLong(Map.Entry::getValue).sum(),
                slow.size(), killed.size(), killed.size(), reruns);
    }

    /** The fewest settled ticks after {@code from} of any of the ten. */
    private static long minTicksAfter(AppInstance instance, long from) throws Exception {
        long fewest = Long.MAX_VALUE;
        for (int job = 0; job < JOBS; job++) {
            fewest = Math.min(fewest, settled(ticks(instance, "tick-" + job), from + 1).size());
        }
        return fewest;
    }

    /** Each tick ran once ({@code twice}: twice), one period after the one before. */
    private static void assertEachOnceOnTheGrid(Map<Long, Long> ticks, String job, Set<Long> twice) {
        Long previous = null;
        for (Map.Entry<Long, Long> tick : ticks.entrySet()) {
            assertThat(tick.getValue()).as("runs of tick %d of %s", tick.getKey(), job)
                    .isEqualTo(twice.contains(tick.getKey()) ? 2 : 1);
            if (previous != null) {
                assertThat(tick.getKey() - previous).as("gap before tick %d of %s", tick.getKey(), job)
                        .isEqualTo(PERIOD);
            }
            previous = tick.getKey();
        }
    }

    /** The ticks from {@code from} on that have surely ended: all but the last {@link #SETTLE_MILLIS}. */
    private static Map<Long, Long> settled(TreeMap<Long, Long> ticks, long from) {
        if (ticks.isEmpty() || ticks.lastKey() - SETTLE_MILLIS < from) {
            return new TreeMap<>();
        }
        return new TreeMap<>(ticks.subMap(from, true, ticks.lastKey() - SETTLE_MILLIS, true));
    }

    /** The slow ticks that started on {@code instance} and did not end there. */
    private static Set<Long> runningOn(AppInstance reader, String instance) throws Exception {
        Set<Long> running = new TreeSet<>(ticks(reader, "slow-started-" + instance).keySet());
        running.removeAll(ticks(reader, "slow-ended-" + instance).keySet());
        return running;
    }

    private static TreeMap<Long, Long> ticks(AppInstance instance, String job) throws Exception {
        TreeMap<Long, Long> ticks = new TreeMap<>();
        counts(instance.get("/scheduling/ticks/" + job)).forEach((tick, runs) -> ticks.put(Long.valueOf(tick), runs));
        return ticks;
    }

    /** {@code pacer.scheduler.reruns} of the instance by job: the runs of dead instances it took over. */
    private static Map<String, Long> reruns(AppInstance instance) throws Exception {
        Map<String, Long> reruns = new TreeMap<>();
        for (String line : metrics(instance)) {
            if (line.startsWith("pacer_scheduler_reruns_total{")) {
                reruns.put(tag(line, "job"), (long) value(line));
            }
        }
        return reruns;
    }

    /** The largest {@code pacer.scheduler.lateness} of the instance over all jobs (Micrometer's recent maximum). */
    private static long maxLatenessMillis(AppInstance instance) throws Exception {
        double max = 0;
        for (String line : metrics(instance)) {
            if (line.startsWith("pacer_scheduler_lateness_seconds_max{")) {
                max = Math.max(max, value(line));
            }
        }
        return Math.round(max * 1000);
    }

    private static List<String> metrics(AppInstance instance) {
        try {
            return List.of(instance.get("/q/metrics").split("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String tag(String line, String name) {
        int start = line.indexOf(name + "=\"") + name.length() + 2;
        return line.substring(start, line.indexOf('"', start));
    }

    private static double value(String line) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static Map<String, Long> counts(String lines) {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : lines.split("\n")) {
            if (!line.isBlank()) {
                String[] parts = line.trim().split(" ");
                counts.put(parts[0], Long.valueOf(parts[1]));
            }
        }
        return counts;
    }
}
