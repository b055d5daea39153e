package io.quarkiverse.pacer.delay;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

// @formatter:off
/**
 * Recurring schedules managed at runtime, as data: each one schedules a payload on a delay queue on every tick of a
 * cron expression in a time zone, or of a fixed period, so the queue's {@link Delayed} consumer handles it with its
 * retries, dead letters, throttling and tracing (or its {@code forward-to} channel). Schedules live in Redis and are
 * shared by every instance; calls block the calling thread for a bounded time, and throw
 * {@link IllegalStateException} on a Vert.x event loop: use {@link ReactiveRecurringSchedules} there.
 *
 * <pre>{@code
 * @Inject
 * RecurringSchedules schedules;
 *
 * void subscribe(Customer customer) {
 *     // every Monday at 08:00 in the customer's time zone, ReportRequest reaches @Delayed("weekly-report")
 *     schedules.upsert(RecurringDelivery.cron("report-" + customer.id(), "0 0 8 ? * MON", customer.zone())
 *             .deliver("weekly-report", new ReportRequest(customer.id())));
 * }
 *
 * void unsubscribe(Customer customer) {
 *     schedules.delete("report-" + customer.id());
 * }
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * Ticks are fired by the instances that consume delay queues ({@code quarkus.pacer.delayed.consumer.enabled}, with at
 * least one {@link Delayed} method or {@code forward-to} queue), whichever are up; time is the Redis server's. Each
 * tick's message gets the id {@code <schedule id>@<tick>} (the tick as an ISO-8601 instant, such as
 * {@code report-42@2030-01-07T07:00:00Z}) and the tick as its due time ({@link DelayedMessage#dueAt()}). Each tick is
 * scheduled once: the instance that fires it moves the schedule on with a compare-and-set in Redis, and records the
 * tick as pending until its message is stored. When that instance dies in between, another instance stores the tick's
 * message after a lease of about half a minute; if the first one had stored it already and it was handled meanwhile,
 * the tick is delivered a second time. Ticks missed beyond the schedule's overdue grace period (every consuming
 * instance down, Redis unreachable, the schedule paused) are skipped, with a warning.
 *
 * <h2>Failures</h2>
 * Bad input ({@link IllegalArgumentException}) is refused before anything is sent. When Redis is unavailable, a call
 * fails with a {@link PacerRedisException}; every call can be made again safely.
 *
 * @see ReactiveRecurringSchedules
 * @see RecurringDelivery
 */
// @formatter:on
public interface RecurringSchedules {

    /**
     * Creates the schedule, or replaces the one with the same id (an upsert): safe to call from every instance at
     * startup. A schedule whose timing (cron expression and zone, or period) is unchanged keeps its next fire time, so
     * upserting the same schedule again, from any number of instances at once, leaves one schedule and shifts no tick;
     * a new payload, queue or grace period applies from the next tick. A new timing starts from now (Redis time). A
     * paused schedule stays paused.
     *
     * @param delivery the schedule
     * @return the schedule's next fire time (Redis clock)
     * @throws IllegalArgumentException for an invalid cron expression (the message names it), a bad queue name, or a
     *         payload that cannot be serialized or does not fit the queue's consumer in this application
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    Instant upsert(RecurringDelivery delivery);

    /**
     * Pauses a schedule on every instance: it fires nothing until {@link #resume(String)}. Pausing a paused schedule
     * does nothing.
     *
     * @param id the schedule's id
     * @return {@code false} when there is no such schedule
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    boolean pause(String id);

    /**
     * Resumes a paused schedule, on its grid: the tick it was waiting for when paused fires if it is still within the
     * overdue grace period, older ones are skipped. Resuming a schedule that is not paused does nothing.
     *
     * @param id the schedule's id
     * @return {@code false} when there is no such schedule
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    boolean resume(String id);

    /**
     * Schedules the schedule's payload on its queue for delivery now, once, whether or not the schedule is paused; the
     * schedule's ticks do not move. The message id is {@code <schedule id>@now-<Redis time>}, so calling again makes
     * another message.
     *
     * @param id the schedule's id
     * @return the message id, empty when there is no such schedule
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    Optional<String> triggerNow(String id);

    /**
     * Reads one schedule.
     *
     * @param id the schedule's id
     * @return the schedule, empty when there is none
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    Optional<RecurringDeliveryState> get(String id);

    /**
     * Reads every schedule, sorted by id, a few hundred per Redis call. Schedules created or deleted while it reads
     * may or may not be in the list.
     *
     * @return the schedules
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    List<RecurringDeliveryState> list();

    /**
     * Deletes a schedule from Redis: it fires no more ticks. Schedules have no time to live: they stay until deleted.
     * Messages it already scheduled are not cancelled.
     *
     * @param id the schedule's id
     * @return {@code false} when there was no such schedule
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    boolean delete(String id);
}
