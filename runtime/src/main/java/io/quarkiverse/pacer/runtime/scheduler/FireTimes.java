package io.quarkiverse.pacer.runtime.scheduler;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import com.cronutils.model.Cron;
import com.cronutils.model.time.ExecutionTime;

/**
 * The ticks of one schedule, in epoch millis. Every instance computes the same ticks from the same stored fire time, so
 * the schedule's grid is fixed by the tick that started it, not by when an instance happens to look.
 */
sealed interface FireTimes {

    /** The first tick of a schedule initialized at {@code now} (Redis time) with an initial delay. */
    long first(long now, long delayMillis);

    /** The tick after {@code tick}. */
    long after(long tick);

    /** The first tick at or after {@code time}, on the grid that contains {@code tick}; {@code time >= tick}. */
    long firstAtOrAfter(long tick, long time);

    /** Identifies the schedule: instances that disagree on it re-initialize the job (see scheduler-claim.lua). */
    String spec();

    /** {@code @Scheduled(every = ...)}: a fixed grid, {@code period} apart. */
    record Every(long period) implements FireTimes {

        @Override
        public long first(long now, long delayMillis) {
            return now + delayMillis;
        }

        @Override
        public long after(long tick) {
            return tick + period;
        }

        @Override
        public long firstAtOrAfter(long tick, long time) {
            long steps = (time - tick + period - 1) / period;
            return tick + steps * period;
        }

        @Override
        public String spec() {
            return "every:" + period;
        }
    }

    /** {@code @Scheduled(cron = ...)} in a time zone, as the cron library computes it (daylight-saving included). */
    record CronTimes(String expression, Cron cron, ZoneId zone) implements FireTimes {

        @Override
        public long first(long now, long delayMillis) {
            return firstAtOrAfter(now, now + delayMillis);
        }

        @Override
        public long after(long tick) {
            ZonedDateTime from = Instant.ofEpochMilli(tick).atZone(zone);
            return ExecutionTime.forCron(cron).nextExecution(from)
                    .orElseThrow(() -> new IllegalStateException("The cron expression " + expression
                            + " has no fire time after " + from))
                    .toInstant().toEpochMilli();
        }

        @Override
        public long firstAtOrAfter(long tick, long time) {
            return after(time - 1);
        }

        @Override
        public String spec() {
            return "cron:" + expression + "@" + zone.getId();
        }
    }
}
