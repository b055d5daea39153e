package io.quarkiverse.pacer.delay;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

// @formatter:off
/**
 * A recurring schedule as data: on every tick of a cron expression in a time zone, or of a fixed period, one message
 * with {@link #payload()} is scheduled on the delay queue {@link #queue()}, so the queue's consumer (a {@link Delayed}
 * method, or its {@code forward-to} channel) handles it with its retries, dead letters, throttling and tracing. Stored
 * and fired by {@link RecurringSchedules}.
 *
 * <pre>{@code
 * RecurringDelivery weekly = RecurringDelivery.cron("report-" + customer.id(), "0 0 8 ? * MON", customer.zone())
 *         .deliver("weekly-report", new ReportRequest(customer.id()))
 *         .withOverdueGracePeriod(Duration.ofHours(6));
 * schedules.upsert(weekly);
 *
 * RecurringDelivery heartbeat = RecurringDelivery.every("heartbeat", Duration.ofMinutes(5)).deliver("pings", "ping");
 * }</pre>
 *
 * Instances are immutable; the factories reject a blank id, cron expression or queue name and a {@code null} payload
 * at once, and {@link RecurringSchedules#upsert(RecurringDelivery)} checks the cron expression (Quarkus's cron syntax,
 * {@code quarkus.scheduler.cron-type}), the queue name and the payload before anything is stored.
 */
// @formatter:on
public final class RecurringDelivery {

    /** The shortest period of {@link #every(String, Duration)}. */
    public static final Duration MIN_PERIOD = Duration.ofSeconds(1);

    private final String id;
    private final String cron;
    private final ZoneId zone;
    private final Duration every;
    private final String queue;
    private final Object payload;
    private final Duration overdueGracePeriod;

    private RecurringDelivery(Timing timing, String queue, Object payload, Duration overdueGracePeriod) {
        this.id = timing.id;
        this.cron = timing.cron;
        this.zone = timing.zone;
        this.every = timing.every;
        this.queue = queue;
        this.payload = payload;
        this.overdueGracePeriod = overdueGracePeriod;
    }

    /**
     * A schedule firing on the ticks of a cron expression in a time zone; daylight-saving transitions are what the cron
     * library computes in that zone.
     *
     * @param id the schedule's id, unique among the application's recurring schedules; not blank
     * @param cron a cron expression in Quarkus's syntax ({@code quarkus.scheduler.cron-type}, Quartz by default), such
     *        as {@code "0 0 8 ? * MON"}
     * @param zone the time zone the expression is read in
     * @return the timing, to complete with {@link Timing#deliver(String, Object)}
     * @throws IllegalArgumentException when {@code id} or {@code cron} is blank
     * @throws NullPointerException when an argument is {@code null}
     */
    public static Timing cron(String id, String cron, ZoneId zone) {
        checkId(id);
        Objects.requireNonNull(cron, "cron");
        if (cron.isBlank()) {
            throw new IllegalArgumentException("The cron expression of recurring schedule " + id + " must not be blank");
        }
        return new Timing(id, cron.trim(), Objects.requireNonNull(zone, "zone"), null);
    }

    /**
     * A schedule firing every {@code period}: its first tick comes one period after it is first stored, and its ticks
     * stay on that grid.
     *
     * @param id the schedule's id, unique among the application's recurring schedules; not blank
     * @param period the time between two ticks, at least {@link #MIN_PERIOD}, in whole milliseconds
     * @return the timing, to complete with {@link Timing#deliver(String, Object)}
     * @throws IllegalArgumentException when {@code id} is blank or {@code period} is shorter than one second
     * @throws NullPointerException when an argument is {@code null}
     */
    public static Timing every(String id, Duration period) {
        checkId(id);
        Objects.requireNonNull(period, "period");
        if (period.compareTo(MIN_PERIOD) < 0) {
            throw new IllegalArgumentException("The period of recurring schedule " + id + " must be at least "
                    + MIN_PERIOD + ", was " + period);
        }
        return new Timing(id, null, null, Duration.ofMillis(period.toMillis()));
    }

    private static void checkId(String id) {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("A recurring schedule id must not be blank");
        }
    }

    /**
     * The same schedule with another overdue grace period: how late a tick that no instance could fire in time (all
     * instances down, Redis unreachable, the schedule paused) may still fire; older missed ticks are skipped.
     *
     * @param gracePeriod zero or positive; {@code null} for the default, {@code quarkus.scheduler.overdue-grace-period}
     *        (1 second unless configured)
     * @return a new definition
     * @throws IllegalArgumentException when {@code gracePeriod} is negative
     */
    public RecurringDelivery withOverdueGracePeriod(Duration gracePeriod) {
        if (gracePeriod != null && gracePeriod.isNegative()) {
            throw new IllegalArgumentException("The overdue grace period of recurring schedule " + id
                    + " must not be negative, was " + gracePeriod);
        }
        return new RecurringDelivery(new Timing(id, cron, zone, every), queue, payload, gracePeriod);
    }

    /** {@return the schedule's id} */
    public String id() {
        return id;
    }

    /** {@return the cron expression, or {@code null} for a schedule made with {@link #every(String, Duration)}} */
    public String cron() {
        return cron;
    }

    /** {@return the time zone of {@link #cron()}, or {@code null} for a schedule made with {@code every}} */
    public ZoneId zone() {
        return zone;
    }

    /** {@return the period, or {@code null} for a schedule made with {@link #cron(String, String, ZoneId)}} */
    public Duration every() {
        return every;
    }

    /** {@return the delay queue each tick's message is scheduled on} */
    public String queue() {
        return queue;
    }

    /**
     * The payload of each tick's message. As given to the factory on a definition you build; as stored on one read back
     * ({@link RecurringSchedules#get(String)}): a {@code String} holding the JSON of an object payload, or the text of
     * a {@code String}, or a {@code byte[]}, which upserted again store the same payload.
     *
     * @return the payload
     */
    public Object payload() {
        return payload;
    }

    /** {@return the overdue grace period, empty for the default ({@code quarkus.scheduler.overdue-grace-period})} */
    public Optional<Duration> overdueGracePeriod() {
        return Optional.ofNullable(overdueGracePeriod);
    }

    /**
     * Equal definitions: same id, timing, queue, grace period and payload ({@code byte[]} payloads compared by content).
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof RecurringDelivery that && id.equals(that.id) && Objects.equals(cron, that.cron)
                && Objects.equals(zone, that.zone) && Objects.equals(every, that.every) && queue.equals(that.queue)
                && Objects.deepEquals(payload, that.payload)
                && Objects.equals(overdueGracePeriod, that.overdueGracePeriod);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, cron, zone, every, queue,
                payload instanceof byte[] bytes ? Arrays.hashCode(bytes) : payload, overdueGracePeriod);
    }

    @Override
    public String toString() {
        return "RecurringDelivery[" + id + ": " + (cron != null ? "cron " + cron + " in " + zone : "every " + every)
                + " to queue " + queue + (overdueGracePeriod == null ? "" : ", overdue grace period " + overdueGracePeriod)
                + "]";
    }

    /**
     * When a recurring schedule fires; {@link #deliver(String, Object)} says what it delivers.
     */
    public static final class Timing {

        private final String id;
        private final String cron;
        private final ZoneId zone;
        private final Duration every;

        private Timing(String id, String cron, ZoneId zone, Duration every) {
            this.id = id;
            this.cron = cron;
            this.zone = zone;
            this.every = every;
        }

        /**
         * Completes the schedule: each tick schedules {@code payload} on {@code queue}, serialized as
         * {@link DelayedQueue} serializes it (JSON with the application's {@code ObjectMapper}; {@code String} and
         * {@code byte[]} as they are).
         *
         * @param queue the delay queue, not blank
         * @param payload the payload, not {@code null}
         * @return the schedule, with the default overdue grace period
         * @throws IllegalArgumentException when {@code queue} is blank or {@code payload} is {@code null}
         */
        public RecurringDelivery deliver(String queue, Object payload) {
            if (queue == null || queue.isBlank()) {
                throw new IllegalArgumentException("The delay queue of recurring schedule " + id
                        + " must not be blank");
            }
            if (payload == null) {
                throw new IllegalArgumentException("The payload of recurring schedule " + id + " must not be null");
            }
            return new RecurringDelivery(this, queue, payload, null);
        }
    }
}
