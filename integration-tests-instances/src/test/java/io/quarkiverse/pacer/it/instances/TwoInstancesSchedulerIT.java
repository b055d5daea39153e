package io.quarkiverse.pacer.it.instances;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The promise of {@code @Scheduled(executeWith = "PACER")}: two instances of the packaged application run ten
 * schedules every second, and every tick runs exactly once across both: no tick twice, none missed, on a one-second
 * grid; both instances take ticks. A job paused through one instance is paused on the other, and resumed through the
 * other it runs again. Last, one instance is killed ({@code kill -9}) while it runs ticks of a schedule whose runs take
 * three seconds: each run it was in the middle of runs again, once, on the other instance when its lease expires, and
 * every other tick of that schedule ran exactly once, none missed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// The count first: the pause leaves a gap in tick-0's ticks; the kill last.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoInstancesSchedulerIT {

    /** Ticks of each job the test waits for: about this many seconds of running. */
    static final int TICKS = 20;
    static final int JOBS = 10;

    private RedisServerProcess redis;
    private List<AppInstance> instances;

    @BeforeAll
    void start() throws Exception {
        redis = new RedisServerProcess().start();
        instances = List.of(
                new AppInstance("first", redis.uri(), "pacer.it.schedules.every=1s", "pacer.it.slow.every=1s",
                        "pacer.it.instance=first"),
                new AppInstance("second", redis.uri(), "pacer.it.schedules.every=1s", "pacer.it.slow.every=1s",
                        "pacer.it.instance=second"));
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
    void everyTickRunsOnceAcrossBothInstances() throws Exception {
        AppInstance first = instances.get(0);
        await().atMost(Duration.ofSeconds(TICKS * 3)).pollInterval(Duration.ofMillis(500))
                .until(() -> ticks(first, "tick-" + (JOBS - 1)).size() >= TICKS + 3);
        for (int job = 0; job < JOBS; job++) {
            Map<Long, Long> ticks = ticks(first, "tick-" + job);
            // The last two seconds may still have a run in flight: the count covers the ticks before them.
            long newest = ticks.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
            List<Long> settled = new ArrayList<>();
            ticks.forEach((tick, runs) -> {
                if (tick <= newest - 2000) {
                    settled.add(tick);
                }
            });
            assertThat(settled.size()).as("settled ticks of tick-%d", job).isGreaterThanOrEqualTo(TICKS);
            for (long tick : settled) {
                assertThat(ticks.get(tick)).as("runs of tick %d of tick-%d", tick, job).isEqualTo(1);
            }
            for (int i = 1; i < settled.size(); i++) {
                assertThat(settled.get(i) - settled.get(i - 1)).as("gap before tick %d of tick-%d", settled.get(i), job)
                        .isEqualTo(1000);
            }
        }
        Map<String, Long> byInstance = counts(first.get("/scheduling/instances"));
        assertThat(byInstance).containsOnlyKeys("first", "second");
        assertThat(byInstance.values()).allMatch(runs -> runs > 0);
        System.out.printf("Two instances, %d schedules every second: each of >= %d ticks per job ran once; runs by "
                + "instance %s%n", JOBS, TICKS, byInstance);
    }

    @Test
    @Order(2)
    void pauseAndResumeHoldOnEveryInstance() throws Exception {
        AppInstance first = instances.get(0);
        AppInstance second = instances.get(1);
        String job = "tick-0";
        await().atMost(Duration.ofSeconds(30)).until(() -> !ticks(first, job).isEmpty());
        first.post("/scheduling/pause/" + job);
        assertThat(second.get("/scheduling/paused/" + job)).isEqualTo("true");
        assertThat(first.get("/scheduling/paused/" + job)).isEqualTo("true");
        // At most a run in flight when the pause came finishes; no tick starts afterwards while the others go on.
        int pausedAt = ticks(first, job).size();
        int otherAt = ticks(first, "tick-1").size();
        await().atMost(Duration.ofSeconds(30)).until(() -> ticks(first, "tick-1").size() >= otherAt + 3);
        assertThat(ticks(first, job).size()).isLessThanOrEqualTo(pausedAt + 1);

        second.post("/scheduling/resume/" + job);
        assertThat(first.get("/scheduling/paused/" + job)).isEqualTo("false");
        int resumedAt = ticks(first, job).size();
        await().atMost(Duration.ofSeconds(30)).until(() -> ticks(first, job).size() >= resumedAt + 2);
        assertThat(ticks(first, job).values()).containsOnly(1L);
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
            long phase = Math.floorMod(System.currentTimeMillis() - ticks(first, "slow").keySet().iterator().next(),
                    1000L);
            return !running.isEmpty() && phase >= 400 && phase <= 600;
        });
        second.kill();
        Set<Long> killed = runningOn(first, "second");
        assertThat(killed).isNotEmpty();

        // Their leases expire (the default lease, renewed while a run lasts), and the first instance runs them again.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> ticks(first, "slow-ended-first").keySet().containsAll(killed));
        Map<Long, Long> ticks = ticks(first, "slow");
        Map<Long, Long> startedOnFirst = ticks(first, "slow-started-first");
        long newest = ticks.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
        List<Long> settled = ticks.keySet().stream().filter(tick -> tick <= newest - 2000).toList();
        assertThat(settled).contains(killed.toArray(Long[]::new));
        int twice = 0;
        for (long tick : settled) {
            long expected = killed.contains(tick) ? 2 : 1;
            assertThat(ticks.get(tick)).as("runs of slow tick %d", tick).isEqualTo(expected);
            twice += expected == 2 ? 1 : 0;
        }
        for (long tick : killed) {
            assertThat(startedOnFirst.get(tick)).as("runs of killed tick %d on the first instance", tick).isEqualTo(1);
        }
        for (int i = 1; i < settled.size(); i++) {
            assertThat(settled.get(i) - settled.get(i - 1)).as("gap before slow tick %d", settled.get(i)).isEqualTo(1000);
        }
        System.out.printf("One of two instances killed mid-run: of %d slow ticks, %d ran twice (the runs it was in the "
                + "middle of: %d, each run again on the other instance), the others once, none missed%n", settled.size(),
                twice, killed.size());
    }

    /** The slow ticks that started on {@code instance} and did not end there. */
    private static Set<Long> runningOn(AppInstance reader, String instance) throws Exception {
        Set<Long> running = new TreeSet<>(ticks(reader, "slow-started-" + instance).keySet());
        running.removeAll(ticks(reader, "slow-ended-" + instance).keySet());
        return running;
    }

    private static Map<Long, Long> ticks(AppInstance instance, String job) throws Exception {
        Map<Long, Long> ticks = new TreeMap<>();
        counts(instance.get("/scheduling/ticks/" + job)).forEach((tick, runs) -> ticks.put(Long.valueOf(tick), runs));
        return ticks;
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
