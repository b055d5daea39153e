package io.quarkiverse.pacer.runtime.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import org.junit.jupiter.api.Test;

import com.cronutils.model.CronType;

import io.quarkus.scheduler.common.runtime.CronParser;

/** The ticks every instance computes alike: a fixed grid for every, the cron library's times in the zone for cron. */
class FireTimesTest {

    @Test
    void everyIsAFixedGrid() {
        FireTimes.Every every = new FireTimes.Every(1000);
        assertThat(every.first(5_000, 0)).isEqualTo(5_000);
        assertThat(every.first(5_000, 2_000)).isEqualTo(7_000);
        assertThat(every.after(5_000)).isEqualTo(6_000);
        assertThat(every.firstAtOrAfter(5_000, 5_000)).isEqualTo(5_000);
        assertThat(every.firstAtOrAfter(5_000, 5_001)).isEqualTo(6_000);
        assertThat(every.firstAtOrAfter(5_000, 9_999)).isEqualTo(10_000);
        assertThat(every.spec()).isEqualTo("every:1000");
    }

    @Test
    void cronFollowsTheZoneAcrossDaylightSaving() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        String expression = "0 30 2 * * ?"; // 02:30 every day, a time that does not exist on 29 March 2026 in Paris
        FireTimes.CronTimes cron = new FireTimes.CronTimes(expression,
                new CronParser(CronType.QUARTZ).parse(expression), paris);
        long before = ZonedDateTime.of(2026, 3, 28, 3, 0, 0, 0, paris).toInstant().toEpochMilli();
        long next = cron.after(before);
        // The cron library's documented behaviour decides what happens to the skipped 02:30; every instance agrees.
        assertThat(next).isEqualTo(cron.after(before));
        assertThat(Instant.ofEpochMilli(next)).isAfter(Instant.ofEpochMilli(before));
        long regular = cron.after(ZonedDateTime.of(2026, 3, 30, 0, 0, 0, 0, paris).toInstant().toEpochMilli());
        assertThat(Instant.ofEpochMilli(regular).atZone(paris).toLocalTime().toString()).isEqualTo("02:30");
        assertThat(cron.firstAtOrAfter(0, regular)).isEqualTo(regular);
        assertThat(cron.spec()).isEqualTo("cron:0 30 2 * * ?@Europe/Paris");
    }

    @Test
    void countsTheTicksOfAGap() {
        FireTimes.Every every = new FireTimes.Every(1000);
        assertThat(every.count(5_000, 5_000)).isZero();
        assertThat(every.count(5_000, 5_001)).isEqualTo(1);
        assertThat(every.count(5_000, 6_000)).isEqualTo(1);
        assertThat(every.count(5_000, 6_001)).isEqualTo(2);
        assertThat(every.count(5_000, 10_000)).isEqualTo(5);

        String expression = "0/10 * * * * ?";
        FireTimes.CronTimes cron = new FireTimes.CronTimes(expression,
                new CronParser(CronType.QUARTZ).parse(expression), ZoneId.of("UTC"));
        long tick = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        assertThat(cron.count(tick, tick)).isZero();
        assertThat(cron.count(tick, tick + 60_000)).isEqualTo(6);
        assertThat(cron.count(tick, tick + 60_001)).isEqualTo(7);
        // Beyond the ticks counted one by one, the rest is estimated from their average period: exact on a regular cron.
        assertThat(cron.count(tick, tick + 10_000L * 5_000)).isEqualTo(5_000);
    }
}
