package io.quarkiverse.pacer.delay;

import java.time.Instant;
import java.util.List;

import io.smallrye.mutiny.Uni;

// @formatter:off
/**
 * Manages recurring schedules without blocking: the reactive twin of {@link RecurringSchedules}, safe to use on a
 * Vert.x event loop, with the same guarantees (see {@link RecurringSchedules}). Every returned {@link Uni} is lazy:
 * nothing is sent to Redis until subscription.
 *
 * <pre>{@code
 * @Inject
 * ReactiveRecurringSchedules schedules;
 *
 * Uni<Instant> subscribe(Customer customer) {
 *     return schedules.upsert(RecurringDelivery.cron("report-" + customer.id(), "0 0 8 ? * MON", customer.zone())
 *             .deliver("weekly-report", new ReportRequest(customer.id())));
 * }
 * }</pre>
 *
 * Bad input throws {@link IllegalArgumentException} at once, when the method is called, before a {@code Uni} is
 * returned. When Redis is unavailable, the {@code Uni} fails with a {@link PacerRedisException}.
 *
 * @see RecurringSchedules
 */
// @formatter:on
public interface ReactiveRecurringSchedules {

    /**
     * Creates the schedule, or replaces the one with the same id. See {@link RecurringSchedules#upsert(RecurringDelivery)}.
     *
     * @param delivery the schedule
     * @return the schedule's next fire time (Redis clock)
     * @throws IllegalArgumentException for an invalid cron expression, queue name or payload
     */
    Uni<Instant> upsert(RecurringDelivery delivery);

    /**
     * Pauses a schedule on every instance. See {@link RecurringSchedules#pause(String)}.
     *
     * @param id the schedule's id
     * @return {@code false} when there is no such schedule
     */
    Uni<Boolean> pause(String id);

    /**
     * Resumes a paused schedule. See {@link RecurringSchedules#resume(String)}.
     *
     * @param id the schedule's id
     * @return {@code false} when there is no such schedule
     */
    Uni<Boolean> resume(String id);

    /**
     * Schedules the schedule's payload on its queue at once, once, off its grid. See
     * {@link RecurringSchedules#triggerNow(String)}.
     *
     * @param id the schedule's id
     * @return the message id, or a {@code null} item when there is no such schedule
     */
    Uni<String> triggerNow(String id);

    /**
     * Reads one schedule.
     *
     * @param id the schedule's id
     * @return the schedule, or a {@code null} item when there is none
     */
    Uni<RecurringDeliveryState> get(String id);

    /**
     * Reads every schedule, sorted by id. See {@link RecurringSchedules#list()}.
     *
     * @return the schedules
     */
    Uni<List<RecurringDeliveryState>> list();

    /**
     * Deletes a schedule. See {@link RecurringSchedules#delete(String)}.
     *
     * @param id the schedule's id
     * @return {@code false} when there was no such schedule
     */
    Uni<Boolean> delete(String id);
}
