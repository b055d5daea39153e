package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Response;

/**
 * A tick whose instance died while running it runs again, once, on an instance that sees its lease expired, with the
 * tick's own scheduled fire time. The test writes the runs of other instances into the job's runs itself: a dead
 * one's expired lease is taken over and run again; a live one's lease is left alone until it expires too; a tick
 * already started as often as allowed is dropped, not run.
 */
class PacerScheduledRerunTest {

    private static final String RUNS = "pacer:s:{rerun}:runs";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Job.class, RedisCommands.class));

    @Singleton
    static class Job {
        final List<Long> ticks = new CopyOnWriteArrayList<>();
        final Map<Long, Long> fireTimes = new ConcurrentHashMap<>();

        @Scheduled(every = "1s", identity = "rerun", executeWith = "PACER")
        void run(ScheduledExecution execution) {
            long tick = execution.getScheduledFireTime().toEpochMilli();
            ticks.add(tick);
            fireTimes.put(tick, execution.getFireTime().toEpochMilli());
        }
    }

    @Inject
    Job job;

    @Inject
    PacerRedis redis;

    @Test
    void anExpiredRunRunsAgainOnceALiveOneDoesNot() {
        await().atMost(Duration.ofSeconds(30)).until(() -> !job.ticks.isEmpty());
        long first = job.ticks.get(0);
        long dead = first - 5_000;
        long live = first - 6_000;
        long exhausted = first - 7_000;
        long now = redisNow();
        String liveRun = live + ":1:live-instance:1";
        RedisCommands.send(redis, "ZADD", RUNS, now + 600_000, liveRun, now - 1, dead + ":1:dead-instance:1",
                now - 1, exhausted + ":3:dead-instance:2");

        // The dead instance's run is taken over and runs again with its own tick; the exhausted one is dropped.
        await().atMost(Duration.ofSeconds(10)).until(() -> job.ticks.contains(dead));
        await().atMost(Duration.ofSeconds(10)).until(() -> runs().equals(List.of(liveRun)));
        assertThat(job.fireTimes.get(dead)).isGreaterThanOrEqualTo(now);
        int ticksBefore = job.ticks.size();
        await().atMost(Duration.ofSeconds(10)).until(() -> job.ticks.size() >= ticksBefore + 2);
        assertThat(job.ticks).doesNotContain(live, exhausted);

        // The live instance's run expires (its instance died): it runs again too, once.
        RedisCommands.send(redis, "ZADD", RUNS, "XX", redisNow() - 1, liveRun);
        await().atMost(Duration.ofSeconds(10)).until(() -> job.ticks.contains(live));
        int ticksAfter = job.ticks.size();
        await().atMost(Duration.ofSeconds(10)).until(() -> job.ticks.size() >= ticksAfter + 2);
        assertThat(job.ticks).doesNotHaveDuplicates().doesNotContain(exhausted);
        // The job's own ticks went on meanwhile, each once, none missed.
        List<Long> own = job.ticks.stream().filter(tick -> tick >= first).toList();
        for (int i = 0; i < own.size(); i++) {
            assertThat(own.get(i)).isEqualTo(first + i * 1000L);
        }
    }

    private long redisNow() {
        Response time = RedisCommands.send(redis, "TIME");
        return time.get(0).toLong() * 1000 + time.get(1).toLong() / 1000;
    }

    /** The runs the test wrote that are still in flight (this instance's own runs end within milliseconds). */
    private List<String> runs() {
        return RedisCommands.send(redis, "ZRANGE", RUNS, 0, -1).stream().map(Response::toString)
                .filter(member -> member.contains("-instance:")).toList();
    }
}
