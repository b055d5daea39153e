package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkus.scheduler.FailedExecution;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A run that throws has run: it releases its lease like a run that succeeds, fires {@code FailedExecution}, and its
 * tick is not run again.
 */
class PacerScheduledFailedRunTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Job.class, RedisCommands.class));

    @Singleton
    static class Job {
        final List<Long> ticks = new CopyOnWriteArrayList<>();
        final List<Long> failed = new CopyOnWriteArrayList<>();

        @Scheduled(every = "1s", identity = "failing", executeWith = "PACER")
        void run(ScheduledExecution execution) {
            ticks.add(execution.getScheduledFireTime().toEpochMilli());
            throw new IllegalStateException("expected by the test");
        }

        void onFailed(@Observes FailedExecution failed) {
            if (failed.getExecution().getTrigger().getId().equals("failing")) {
                this.failed.add(failed.getExecution().getScheduledFireTime().toEpochMilli());
            }
        }
    }

    @Inject
    Job job;

    @Inject
    PacerRedis redis;

    @Test
    void aRunThatThrowsReleasesItsLeaseAndIsNotRunAgain() {
        await().atMost(Duration.ofSeconds(30)).until(() -> job.failed.size() >= 3);
        // Released at once, well before the lease would expire: nothing is left for another instance to run again.
        await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> RedisCommands.send(redis, "ZCARD", "pacer:s:{failing}:runs").toInteger() == 0);
        assertThat(job.ticks).doesNotHaveDuplicates();
        assertThat(job.failed).isSubsetOf(job.ticks);
    }
}
