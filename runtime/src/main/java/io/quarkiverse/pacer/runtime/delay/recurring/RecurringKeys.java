package io.quarkiverse.pacer.runtime.delay.recurring;

import java.util.List;

/**
 * The Redis keys of the recurring schedules, all with the hash tag {@code {recurring}}, so every script runs on one
 * Redis Cluster slot:
 * <ul>
 * <li>{@code <prefix>:r:{recurring}} HASH: schedule id to its definition ({@link StoredDelivery});</li>
 * <li>{@code <prefix>:r:{recurring}:due} ZSET: schedule id scored by its next fire time in epoch millis, {@code +inf}
 * while paused;</li>
 * <li>{@code <prefix>:r:{recurring}:paused} HASH: paused schedule id to the next fire time it will resume with;</li>
 * <li>{@code <prefix>:r:{recurring}:pending} ZSET: fired ticks not yet stored in their delay queue,
 * {@code <tick>:<start>:<id>} scored by the deadline of their lease;</li>
 * <li>{@code <prefix>:r:{recurring}:wake} pub/sub channel (not a key) announcing a new earliest fire time.</li>
 * </ul>
 * The schedules are the application's data: no key has a time to live, {@code delete} removes a schedule, and the
 * pending set empties itself.
 */
final class RecurringKeys {

    final String definitions;
    final String due;
    final String paused;
    final String pending;
    final String wakeChannel;
    /** The KEYS of every recurring-*.lua script, in the order their headers number them. */
    final List<String> all;

    RecurringKeys(String keyPrefix) {
        this.definitions = keyPrefix + ":r:{recurring}";
        this.due = definitions + ":due";
        this.paused = definitions + ":paused";
        this.pending = definitions + ":pending";
        this.wakeChannel = definitions + ":wake";
        this.all = List.of(definitions, due, paused, pending);
    }
}
