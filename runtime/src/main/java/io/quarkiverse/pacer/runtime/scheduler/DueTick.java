package io.quarkiverse.pacer.runtime.scheduler;

/**
 * What to do with a schedule whose next tick {@code next} is due at {@code now} (Redis time): run that tick, or when it
 * was missed by more than the overdue grace period, the latest missed tick still within it (or none), and move the
 * schedule on to the tick after. The one rule for missed ticks of PACER jobs and recurring schedules.
 *
 * @param run the tick to run, {@code null} to run none
 * @param newNext the schedule's next tick after this step
 * @param missed ticks skipped as overdue before {@code run} (or {@code newNext}); 0 when none
 */
public record DueTick(Long run, long newNext, long missed) {

    /**
     * @param next the schedule's next tick, {@code <= now}
     * @param now Redis time
     * @param graceMillis how late a tick may still run
     */
    public static DueTick of(FireTimes times, long next, long now, long graceMillis) {
        long earliest = now - graceMillis;
        Long run;
        if (next >= earliest) {
            run = next;
        } else {
            long late = times.firstAtOrAfter(next, earliest);
            run = late <= now ? late : null;
        }
        long newNext = run != null ? times.after(run) : times.firstAtOrAfter(next, now + 1);
        long missed = run == null || run != next ? times.count(next, run == null ? newNext : run) : 0;
        return new DueTick(run, newNext, missed);
    }

    /** The first tick skipped as overdue (the schedule's {@code next} when this step started), if any. */
    public boolean skipped() {
        return missed > 0;
    }
}
