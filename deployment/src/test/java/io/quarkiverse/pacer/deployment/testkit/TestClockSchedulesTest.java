package io.quarkiverse.pacer.deployment.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringSchedules;
import io.quarkiverse.pacer.test.PacerTestClock;
import io.quarkiverse.pacer.test.PacerTestQueues;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The test clock drives the PACER scheduler and the recurring schedules: a PACER cron job and a recurring schedule of
 * every minute run once per minute the clock passes, with that minute as their fire time; of the minutes passed in one
 * move, those older than the grace period (90 s) are skipped. The delay queues' poll interval is an hour and a minute
 * is longer than the test waits: only the clock's wake-up can run them. Each test starts 5 s past a minute of the moved
 * clock, so the test's own real time never reaches the next minute.
 */
class TestClockSchedulesTest {

    static final String JOB = "every-minute";
    static final String SCHEDULE = "minute-report";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Minutes.class))
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1h");

    @Singleton
    static class Minutes {
        final List<Instant> runs = new CopyOnWriteArrayList<>();
        final List<String> reports = new CopyOnWriteArrayList<>();

        @Scheduled(cron = "0 * * * * ?", identity = JOB, executeWith = "PACER", overdueGracePeriod = "90s")
        void everyMinute(ScheduledExecution execution) {
            runs.add(execution.getScheduledFireTime());
        }

        @Delayed("minute-reports")
        void report(DelayedMessage<String> message) {
            reports.add(message.id() + " due " + message.dueAt());
        }
    }

    @Inject
    Minutes minutes;

    @Inject
    PacerTestClock clock;

    @Inject
    PacerTestQueues queues;

    @Inject
    RecurringSchedules schedules;

    @Inject
    Scheduler scheduler;

    @BeforeEach
    void clean() {
        schedules.delete(SCHEDULE);
        clock.reset();
        queues.purgeAll();
        minutes.runs.clear();
        minutes.reports.clear();
    }

    @Test
    void pacerCronJobRunsOncePerMinuteTheClockPasses() {
        Instant minute = moveToFiveSecondsPastTheNextMinute();
        await().atMost(Duration.ofSeconds(5)).until(() -> minutes.runs.size() == 1);
        assertThat(minutes.runs).containsExactly(minute);

        clock.advance(Duration.ofMinutes(1));
        await().atMost(Duration.ofSeconds(5)).until(() -> minutes.runs.size() == 2);
        assertThat(minutes.runs).containsExactly(minute, minute.plusSeconds(60));

        clock.advance(Duration.ofMinutes(1));
        await().atMost(Duration.ofSeconds(5)).until(() -> minutes.runs.size() == 3);
        assertThat(minutes.runs).containsExactly(minute, minute.plusSeconds(60), minute.plusSeconds(120));
        assertThat(scheduler.getScheduledJob(JOB).getNextFireTime()).isEqualTo(minute.plusSeconds(180));

        // Five minutes at once: the minutes 5 s and 65 s ago run, the three older than 90 s are skipped.
        clock.advance(Duration.ofMinutes(5));
        await().atMost(Duration.ofSeconds(5)).until(() -> minutes.runs.size() == 5);
        assertThat(minutes.runs).containsExactly(minute, minute.plusSeconds(60), minute.plusSeconds(120),
                minute.plusSeconds(360), minute.plusSeconds(420));
        assertThat(scheduler.getScheduledJob(JOB).getNextFireTime()).isEqualTo(minute.plusSeconds(480));
    }

    @Test
    void recurringScheduleDeliversOncePerMinuteTheClockPasses() {
        schedules.upsert(RecurringDelivery.cron(SCHEDULE, "0 * * * * ?", ZoneOffset.UTC)
                .deliver("minute-reports", "report").withOverdueGracePeriod(Duration.ofSeconds(90)));
        Instant minute = moveToFiveSecondsPastTheNextMinute();
        queues.awaitIdle();
        assertThat(minutes.reports).containsExactly(report(minute));

        clock.advance(Duration.ofMinutes(1));
        queues.awaitIdle();
        assertThat(minutes.reports).containsExactly(report(minute), report(minute.plusSeconds(60)));

        // Six minutes at once: the minutes 5 s and 65 s ago are delivered, the four older than 90 s are skipped.
        clock.advance(Duration.ofMinutes(6));
        queues.awaitIdle();
        assertThat(minutes.reports).containsExactly(report(minute), report(minute.plusSeconds(60)),
                report(minute.plusSeconds(360)), report(minute.plusSeconds(420)));
        assertThat(schedules.get(SCHEDULE).orElseThrow().nextFireTime()).isEqualTo(minute.plusSeconds(480));
    }

    /** Moves the clock to 5 s past the next minute of Pacer's time; returns that minute. */
    private Instant moveToFiveSecondsPastTheNextMinute() {
        Instant now = clock.now();
        Instant minute = now.truncatedTo(ChronoUnit.MINUTES).plusSeconds(60);
        clock.advance(Duration.between(now, minute).plusSeconds(5));
        return minute;
    }

    private static String report(Instant minute) {
        return SCHEDULE + "@" + minute + " due " + minute;
    }
}
