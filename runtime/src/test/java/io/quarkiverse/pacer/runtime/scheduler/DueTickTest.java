package io.quarkiverse.pacer.runtime.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import org.junit.jupiter.api.Test;

import com.cronutils.model.CronType;

import io.quarkus.scheduler.common.runtime.CronParser;

/** The rule for a due tick: run it, or skip the ticks missed beyond the grace period; and cron ticks across DST. */
class DueTickTest {

    private static FireTimes.CronTimes cron(String expression, ZoneId zone) {
        return new FireTimes.CronTimes(expression, new CronParser(CronType.QUARTZ).parse(expression), zone);
    }

    @Test
    void aTickOnTimeRunsAndTheNextFollows() {
        FireTimes.Every every = new FireTimes.Every(1000);
        DueTick step = DueTick.of(every, 5_000, 5_010, 1_000);
        assertThat(step.run()).isEqualTo(5_000);
        assertThat(step.newNext()).isEqualTo(6_000);
        assertThat(step.skipped()).isFalse();
    }

    @Test
    void ticksMissedBeyondTheGracePeriodAreSkipped() {
        FireTimes.Every every = new FireTimes.Every(1000);
        // Due since 5 s, grace 1.5 s: the ticks 5000..8000 are skipped, 9000 (within the grace period) runs late.
        DueTick step = DueTick.of(every, 5_000, 10_200, 1_500);
        assertThat(step.run()).isEqualTo(9_000);
        assertThat(step.newNext()).isEqualTo(10_000);
        assertThat(step.missed()).isEqualTo(4);
        // Grace 0 between two ticks: nothing runs, the schedule moves to the next tick after now.
        DueTick none = DueTick.of(every, 5_000, 10_200, 0);
        assertThat(none.run()).isNull();
        assertThat(none.newNext()).isEqualTo(11_000);
        assertThat(none.missed()).isEqualTo(6);
    }

    @Test
    void aWeeklyCronKeepsItsLocalTimeAcrossDaylightSaving() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        FireTimes.CronTimes weekly = cron("0 0 8 ? * MON", paris);
        // Paris moves from UTC+1 to UTC+2 on Sunday 29 March 2026.
        long tick = weekly.after(ZonedDateTime.of(2026, 3, 20, 0, 0, 0, 0, paris).toInstant().toEpochMilli());
        assertThat(Instant.ofEpochMilli(tick)).isEqualTo(Instant.parse("2026-03-23T07:00:00Z"));
        long next = weekly.after(tick);
        assertThat(Instant.ofEpochMilli(next)).isEqualTo(Instant.parse("2026-03-30T06:00:00Z"));
        ZonedDateTime local = Instant.ofEpochMilli(next).atZone(paris);
        assertThat(local.getDayOfWeek()).isEqualTo(DayOfWeek.MONDAY);
        assertThat(local.toLocalTime()).isEqualTo(LocalTime.of(8, 0));
        assertThat(next - tick).isEqualTo(7 * 24 * 3_600_000L - 3_600_000L);
    }

    @Test
    void aDailyCronInTheSkippedHourFollowsTheCronLibrary() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        FireTimes.CronTimes daily = cron("0 30 2 * * ?", paris);
        long before = ZonedDateTime.of(2026, 3, 28, 3, 0, 0, 0, paris).toInstant().toEpochMilli();
        long next = daily.after(before);
        // 02:30 does not exist on 29 March 2026 in Paris: the cron library has no tick that day; the next is 02:30
        // local (UTC+2) on 30 March.
        assertThat(Instant.ofEpochMilli(next)).isEqualTo(Instant.parse("2026-03-30T00:30:00Z"));
        // In the hour that repeats on 25 October 2026 (UTC+2, then UTC+1 again), 02:30 fires once.
        long autumn = ZonedDateTime.of(2026, 10, 25, 0, 0, 0, 0, paris).toInstant().toEpochMilli();
        long first = daily.after(autumn);
        assertThat(Instant.ofEpochMilli(first).atZone(paris).toLocalDateTime().toString()).isEqualTo("2026-10-25T02:30");
        assertThat(Instant.ofEpochMilli(daily.after(first)).atZone(paris).toLocalDateTime().toString())
                .isEqualTo("2026-10-26T02:30");
    }
}
