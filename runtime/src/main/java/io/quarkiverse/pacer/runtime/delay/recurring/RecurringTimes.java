package io.quarkiverse.pacer.runtime.delay.recurring;

import java.time.ZoneId;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.pacer.runtime.scheduler.FireTimes;
import io.quarkus.scheduler.common.runtime.CronParser;

/**
 * The fire times of recurring schedules, with the PACER scheduler's {@link FireTimes} and Quarkus's cron syntax
 * ({@code quarkus.scheduler.cron-type}); parsed cron expressions are kept, a bounded number of them.
 */
final class RecurringTimes {

    /** Distinct timings kept parsed; beyond, the cache starts over (parsing again is correct, only slower). */
    static final int CACHED = 1_000;

    private final CronParser parser;
    private final ConcurrentHashMap<String, FireTimes> cache = new ConcurrentHashMap<>();

    RecurringTimes(CronParser parser) {
        this.parser = parser;
    }

    /**
     * @throws IllegalArgumentException when the cron expression is invalid, naming it and the schedule
     */
    FireTimes cron(String id, String cron, ZoneId zone) {
        FireTimes cached = cache.get(cron + "@" + zone.getId());
        if (cached != null) {
            return cached;
        }
        FireTimes times;
        try {
            times = new FireTimes.CronTimes(cron, parser.parse(cron), zone);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Invalid cron expression \"" + cron + "\" of recurring schedule " + id
                    + " (" + parser.cronType() + " syntax, quarkus.scheduler.cron-type): " + e.getMessage(), e);
        }
        if (cache.size() >= CACHED) {
            cache.clear();
        }
        cache.put(cron + "@" + zone.getId(), times);
        return times;
    }

    static FireTimes every(long periodMillis) {
        return new FireTimes.Every(periodMillis);
    }

    /** The fire times of a stored definition. */
    FireTimes of(String id, StoredDelivery stored) {
        return stored.cron() != null ? cron(id, stored.cron(), ZoneId.of(stored.zone())) : every(stored.everyMillis());
    }
}
