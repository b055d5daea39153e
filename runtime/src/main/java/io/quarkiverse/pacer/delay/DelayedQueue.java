package io.quarkiverse.pacer.delay;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Schedules, cancels and inspects delayed messages, blocking the calling thread: for worker threads, REST endpoints
 * that are not reactive, and tests. Use {@link ReactiveDelayedQueue} on an event loop; calling this API there throws
 * {@link IllegalStateException} instead of blocking it. Every call waits for Redis for a bounded time.
 *
 * <pre>{@code
 * @Inject
 * DelayedQueue queue;
 *
 * void placeOrder(long orderId) {
 *     // deliver OrderRef to the @Delayed("order-timeout") method in 30 minutes
 *     queue.schedule("order-timeout", "order-" + orderId, new OrderRef(orderId), Duration.ofMinutes(30));
 * }
 *
 * void orderPaid(long orderId) {
 *     queue.cancel("order-timeout", "order-" + orderId);
 * }
 * }</pre>
 *
 * <p>
 * Payloads are serialized with the application's Jackson {@code ObjectMapper}; {@code String} is stored as UTF-8 and
 * {@code byte[]} as is. A payload that cannot be serialized fails with {@link IllegalArgumentException}. A
 * {@link Duration} is added to the Redis server clock, never the JVM clock.
 *
 * @see ReactiveDelayedQueue for the semantics of each operation
 * @see Delayed
 */
public interface DelayedQueue {

    /** @see ReactiveDelayedQueue#schedule(String, Object, Duration) */
    String schedule(String queue, Object payload, Duration delay);

    /** @see ReactiveDelayedQueue#schedule(String, Object, Instant) */
    String schedule(String queue, Object payload, Instant dueAt);

    /** Upsert by id. @see ReactiveDelayedQueue#schedule(String, String, Object, Instant) */
    String schedule(String queue, String id, Object payload, Instant dueAt);

    /** Upsert by id. @see ReactiveDelayedQueue#schedule(String, String, Object, Duration) */
    String schedule(String queue, String id, Object payload, Duration delay);

    /** @see ReactiveDelayedQueue#scheduleIfAbsent(String, String, Object, Instant) */
    boolean scheduleIfAbsent(String queue, String id, Object payload, Instant dueAt);

    /** @see ReactiveDelayedQueue#scheduleIfAbsent(String, String, Object, Duration) */
    boolean scheduleIfAbsent(String queue, String id, Object payload, Duration delay);

    /** @see ReactiveDelayedQueue#cancel(String, String) */
    boolean cancel(String queue, String id);

    /**
     * Makes the message {@code id} due at once: a waiting message is delivered as soon as a consumer claims it, a dead
     * letter is replayed with its attempts reset; a message in flight is left alone. Use it in tests instead of
     * waiting for a real delay:
     *
     * <pre>{@code
     * queue.schedule("order-timeout", "order-42", new OrderRef(42), Duration.ofMinutes(30));
     * queue.deliverNow("order-timeout", "order-42"); // the @Delayed method receives it within moments
     * }</pre>
     *
     * @return {@code true} if a waiting or dead-lettered message was made due
     * @see ReactiveDelayedQueue#deliverNow(String, String)
     */
    boolean deliverNow(String queue, String id);

    /** @see ReactiveDelayedQueue#size(String) */
    long size(String queue);

    /** @see ReactiveDelayedQueue#deadLetterCount(String) */
    long deadLetterCount(String queue);

    /** @see ReactiveDelayedQueue#deadLetters(String, int) */
    List<DeadLetter> deadLetters(String queue, int limit);

    /** @see ReactiveDelayedQueue#replay(String, String) */
    boolean replay(String queue, String id);

    /** @see ReactiveDelayedQueue#replayDeadLetters(String) */
    long replayDeadLetters(String queue);

    /** @see ReactiveDelayedQueue#purge(String, String) */
    boolean purge(String queue, String id);

    /** @see ReactiveDelayedQueue#purgeDeadLetters(String) */
    long purgeDeadLetters(String queue);
}
