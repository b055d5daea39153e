package io.quarkiverse.pacer.delay;

import java.time.Instant;
import java.util.Objects;

/**
 * A recurring schedule as stored in Redis, read by {@link RecurringSchedules#get(String)} and
 * {@link RecurringSchedules#list()}.
 *
 * <pre>{@code
 * schedules.get("report-42").ifPresent(state -> log.infof("next report at %s%s", state.nextFireTime(),
 *         state.paused() ? " (paused)" : ""));
 * }</pre>
 *
 * @param delivery the definition, its payload as stored (see {@link RecurringDelivery#payload()})
 * @param paused whether the schedule is paused
 * @param nextFireTime the schedule's next tick by the Redis clock; while paused, the tick it was waiting for when it was
 *        paused
 */
public record RecurringDeliveryState(RecurringDelivery delivery, boolean paused, Instant nextFireTime) {

    /**
     * Checks the required components.
     *
     * @param delivery the definition
     * @param paused whether paused
     * @param nextFireTime the next tick
     * @throws NullPointerException when {@code delivery} or {@code nextFireTime} is {@code null}
     */
    public RecurringDeliveryState {
        Objects.requireNonNull(delivery, "delivery");
        Objects.requireNonNull(nextFireTime, "nextFireTime");
    }

    /** {@return the schedule's id} */
    public String id() {
        return delivery.id();
    }
}
