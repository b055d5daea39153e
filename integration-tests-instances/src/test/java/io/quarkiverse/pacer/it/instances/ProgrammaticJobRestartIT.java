package io.quarkiverse.pacer.it.instances;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * A programmatic PACER job whose task is a class survives a restart of every instance: scheduled once through the
 * first instance, it runs; after that instance stopped, two new instances recreate it from Redis without scheduling it
 * again, and run each tick once across both; unscheduled through one of them, the other stops it too.
 */
class ProgrammaticJobRestartIT {

    private static final String JOB = "programmatic-tick";

    @Test
    void storedJobRunsAfterEveryInstanceRestartedUntilUnscheduled() throws Exception {
        try (RedisServerProcess redis = new RedisServerProcess().start()) {
            long lastBeforeRestart;
            try (AppInstance alone = new AppInstance("alone", redis.uri(), "pacer.it.instance=alone")) {
                alone.post("/scheduling/programmatic/" + JOB + "?every=1s");
                assertThat(alone.get("/scheduling/programmatic/" + JOB)).isEqualTo("true");
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                        .until(() -> ticks(alone).size() >= 3);
                lastBeforeRestart = ((TreeMap<Long, Long>) ticks(alone)).lastKey();
            }
            try (AppInstance first = new AppInstance("first", redis.uri(), "pacer.it.instance=first");
                    AppInstance second = new AppInstance("second", redis.uri(), "pacer.it.instance=second")) {
                // Nobody schedules the job again: both instances have it from Redis.
                assertThat(first.get("/scheduling/programmatic/" + JOB)).isEqualTo("true");
                assertThat(second.get("/scheduling/programmatic/" + JOB)).isEqualTo("true");
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                        .until(() -> ticks(first).keySet().stream().filter(tick -> tick > lastBeforeRestart).count() >= 4);
                Map<Long, Long> ticks = ticks(first);
                ticks.forEach((tick, runs) -> assertThat(runs).as("runs of tick %d", tick).isEqualTo(1));
                List<Long> grid = new ArrayList<>(ticks.keySet());
                for (int i = 1; i < grid.size(); i++) {
                    assertThat((grid.get(i) - grid.get(i - 1)) % 1000).as("ticks %s", grid).isZero();
                }

                assertThat(second.call("DELETE", "/scheduling/programmatic/" + JOB).body()).isEqualTo("true");
                assertThat(second.get("/scheduling/programmatic/" + JOB)).isEqualTo("false");
                // The first instance sees the definition gone at its next read of the stored jobs.
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                        .until(() -> first.get("/scheduling/programmatic/" + JOB).equals("false"));
            }
        }
    }

    private static Map<Long, Long> ticks(AppInstance reader) throws Exception {
        Map<Long, Long> ticks = new TreeMap<>();
        for (String line : reader.get("/scheduling/ticks/" + JOB).split("\n")) {
            if (!line.isBlank()) {
                String[] parts = line.trim().split(" ");
                ticks.put(Long.valueOf(parts[0]), Long.valueOf(parts[1]));
            }
        }
        return ticks;
    }
}
