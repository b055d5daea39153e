/**
 * Recurring schedules of delay queues ({@link io.quarkiverse.pacer.delay.RecurringSchedules}):
 * {@link io.quarkiverse.pacer.runtime.delay.recurring.RedisRecurringSchedules} stores them through
 * {@link io.quarkiverse.pacer.runtime.delay.recurring.RecurringStore} (the {@code recurring-*.lua} scripts over the keys
 * of {@link io.quarkiverse.pacer.runtime.delay.recurring.RecurringKeys}, each definition in the layout of
 * {@link io.quarkiverse.pacer.runtime.delay.recurring.StoredDelivery}), and
 * {@link io.quarkiverse.pacer.runtime.delay.recurring.RecurringFirer} fires their ticks, which
 * {@link io.quarkiverse.pacer.runtime.delay.recurring.TickDelivery} stores in the delay queues, with the
 * PACER scheduler's fire-time rules ({@link io.quarkiverse.pacer.runtime.scheduler.FireTimes},
 * {@link io.quarkiverse.pacer.runtime.scheduler.DueTick}), counting what happens to the ticks in
 * {@link io.quarkiverse.pacer.runtime.delay.recurring.RecurringMetrics}.
 */
package io.quarkiverse.pacer.runtime.delay.recurring;
