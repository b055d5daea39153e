package io.quarkiverse.pacer.runtime.scheduler;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import com.cronutils.model.Cron;
import com.cronutils.model.time.ExecutionTime;

/**
 * The ticks of one schedule, in epoch millis. Every instance computes the same ticks from the same stored fire time, so
 * the schedule's grid is fixed by the tick that started it, not by when an instance happens to look. Shared by the
 * PACER scheduler's jobs and the recurring schedules of delay queues.
 */
public sealed interface FireTimes {

    /** The first tick of a schedule initialized at {@code now} (Redis time) with an initial delay. */
    long first(long now, long delayMillis);

    /** The tick after {@code tick}. */
    long after(long tick);

    /** The first tick at or after {@code time}, on the grid that contains {@code tick}; {@code time >= tick}. */
    long firstAtOrAfter(long tick, long time);

    /** Identifies the schedule: instances that disagree on it re-initialize the job (see scheduler-claim.lua). */
    String spec();

    /** How many ticks from {@code tick} (included) to {@code time} (excluded), on the grid that contains {@code tick}. */
    long count(long tick, long time);

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
        public long count(long tick, long time) {
            return time <= tick ? 0 : (time - tick + period - 1) / period;
        }

        @Override
        public String spec() {
            return "every:" + period;
        }
    }

    /** {@code @Scheduled(cron = ...)} in a time zone, as the cron library computes it (daylight-saving included). */
    record CronTimes(String expression, Cron cron, ZoneId zone) implements FireTimes {

        /** Ticks {@link #count} computes one by one. */
        static final int COUNTED = 1_000;

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

        /**
         * Exact up to {@link #COUNTED} ticks; a longer gap (a cron firing every second, missed for hours) is estimated
         * from the average period of those, so that counting never holds the event loop for long.
         */
        @Override
        public long count(long tick, long time) {
            long count = 0;
            long at = tick;
            while (at < time && count < COUNTED) {
                count++;
                at = after(at);
            }
            if (at < time) {
                long average = Math.max(1, (at - tick) / count);
                count += (time - at + average - 1) / average;
            }
            return count;
        }

        @Override
        public String spec() {
            return "cron:" + expression + "@" + zone.getId();
        }
    }
}
