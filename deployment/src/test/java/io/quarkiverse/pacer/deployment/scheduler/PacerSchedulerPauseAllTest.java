package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.QuarkusUnitTest;

/** {@code Scheduler.pause()} pauses every PACER job in Redis (so on every instance); {@code resume()} resumes them. */
class PacerSchedulerPauseAllTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class, RedisCommands.class));

    @Singleton
    static class Jobs {
        final AtomicInteger first = new AtomicInteger();
        final AtomicInteger second = new AtomicInteger();

        @Scheduled(every = "1s", identity = "first", executeWith = "PACER")
        void first() {
            first.incrementAndGet();
        }

        @Scheduled(every = "1s", identity = "second", executeWith = "PACER")
        void second() {
            second.incrementAndGet();
        }
    }

    @Inject
    Jobs jobs;

    @Inject
    Scheduler scheduler;

    @Inject
    PacerRedis redis;

    @Test
    void pauseAllAndResumeAll() {
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.first.get() > 0 && jobs.second.get() > 0);
        scheduler.pause();
        assertThat(scheduler.isPaused("first")).isTrue();
        assertThat(scheduler.isPaused("second")).isTrue();
        assertThat(RedisCommands.send(redis, "HGET", "pacer:s:{first}", "paused").toString()).isEqualTo("1");
        assertThat(RedisCommands.send(redis, "HGET", "pacer:s:{second}", "paused").toString()).isEqualTo("1");
        assertThat(scheduler.isRunning()).isFalse();
        scheduler.resume();
        assertThat(scheduler.isPaused("first")).isFalse();
        assertThat(scheduler.isPaused("second")).isFalse();
        int first = jobs.first.get();
        int second = jobs.second.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.first.get() > first && jobs.second.get() > second);
        assertThat(scheduler.isRunning()).isTrue();
    }
}
