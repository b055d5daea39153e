package io.quarkiverse.pacer.delay;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

// @formatter:off
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
 *     queue.scheduleWithId("order-timeout", "order-" + orderId, new OrderRef(orderId), Duration.ofMinutes(30));
 * }
 *
 * void orderPaid(long orderId) {
 *     queue.cancel("order-timeout", "order-" + orderId);
 * }
 * }</pre>
 *
 * <h2>Payloads, names and time</h2>
 * Payloads are serialized with the application's Jackson {@code ObjectMapper}; {@code String} is stored as UTF-8 and
 * {@code byte[]} as is. When the queue has a {@link Delayed} consumer in this application, the payload must fit its
 * parameter type. Queue names and ids are non-empty strings; a queue name holds no <code>&#123;</code> or <code>&#125;</code>. A
 * {@link Duration} is added to the Redis server clock, never the JVM clock, so instances with skewed clocks agree; due
 * times are kept with millisecond precision.
 *
 * <h2>Failures</h2>
 * Bad input ({@link IllegalArgumentException}) is refused before anything is sent. When Redis is unavailable, a call
 * is made again for up to {@code quarkus.pacer.delayed.producer-timeout}, then fails with a
 * {@link PacerRedisException}: {@link RedisUnavailableException}, {@link RedisTimeoutException} or
 * {@link RedisOverloadedException}. After such a failure a write may or may not have been stored; scheduling again
 * with the same id is safe, as it is an upsert.
 *
 * @see ReactiveDelayedQueue
 * @see Delayed
 */
// @formatter:on
public interface DelayedQueue {

    /**
     * Schedules {@code payload} on {@code queue} for delivery after {@code delay} (measured on the Redis server), under
     * a generated id. To replace or cancel the message later, prefer {@link #scheduleWithId(String, String, Object,
     * Duration)} with an id of your own.
     *
     * <pre>{@code
     * String id = queue.schedule("order-timeout", new OrderRef(42), Duration.ofMinutes(30));
     * }</pre>
     *
     * @param queue the queue name
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return the generated message id (a unique UUID), usable with {@link #cancel(String, String)}
     * @throws IllegalArgumentException for a bad queue name, a negative delay, or a payload that cannot be serialized or
     *         does not fit the queue's consumer
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout, or with
     *         {@code quarkus.pacer.delayed.durability=replicas} when no replica could confirm the write
     *         ({@link DurabilityUnavailableException}, {@link DurabilityUnconfirmedException})
     */
    String schedule(String queue, Object payload, Duration delay);

    /**
     * Schedules {@code payload} on {@code queue} for delivery at {@code dueAt}, under a generated id; a time in the past
     * means "now".
     *
     * @param queue the queue name
     * @param payload the payload
     * @param dueAt when the message is due
     * @return the generated message id (a unique UUID)
     * @throws IllegalArgumentException for a bad queue name, or a payload that cannot be serialized or does not fit the
     *         queue's consumer
     * @throws NullPointerException when {@code dueAt} is {@code null}
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout, or when a required
     *         replica could not confirm the write
     */
    String schedule(String queue, Object payload, Instant dueAt);

    /**
     * Schedules, or reschedules, the message {@code id} for delivery at {@code dueAt}: if a message with this id is
     * already waiting, in flight or dead-lettered, its payload and due time are replaced and its attempts reset (an
     * upsert). A handler running the old version can no longer acknowledge it.
     *
     * <pre>{@code
     * queue.scheduleWithId("order-timeout", "order-42", new OrderRef(42), Instant.parse("2030-01-01T00:00:00Z"));
     * }</pre>
     *
     * @param queue the queue name
     * @param id the message id, chosen by the caller
     * @param payload the payload
     * @param dueAt when the message is due; a time in the past means "now"
     * @return {@code id}
     * @throws IllegalArgumentException for a bad queue name or id, or a payload that cannot be serialized or does not fit
     *         the queue's consumer
     * @throws NullPointerException when {@code dueAt} is {@code null}
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout, or when a required
     *         replica could not confirm the write
     */
    String scheduleWithId(String queue, String id, Object payload, Instant dueAt);

    /**
     * Schedules, or reschedules, the message {@code id} for delivery after {@code delay} (measured on the Redis
     * server); an upsert, like {@link #scheduleWithId(String, String, Object, Instant)}.
     *
     * <pre>{@code
     * queue.scheduleWithId("order-timeout", "order-42", new OrderRef(42), Duration.ofMinutes(30));
     * }</pre>
     *
     * @param queue the queue name
     * @param id the message id, chosen by the caller
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return {@code id}
     * @throws IllegalArgumentException for a bad queue name or id, a negative delay, or a payload that cannot be
     *         serialized or does not fit the queue's consumer
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout, or when a required
     *         replica could not confirm the write
     */
    String scheduleWithId(String queue, String id, Object payload, Duration delay);

    /**
     * Upsert by id, like {@link #scheduleWithId(String, String, Object, Instant)}.
     *
     * @param queue the queue name
     * @param id the message id
     * @param payload the payload
     * @param dueAt when the message is due
     * @return {@code id}
     * @deprecated an id and a payload are easily swapped in this overload: use
     *             {@link #scheduleWithId(String, String, Object, Instant)}; this method will be removed in a future
     *             release.
     */
    @Deprecated(forRemoval = true)
    default String schedule(String queue, String id, Object payload, Instant dueAt) {
        return scheduleWithId(queue, id, payload, dueAt);
    }

    /**
     * Upsert by id, like {@link #scheduleWithId(String, String, Object, Duration)}.
     *
     * @param queue the queue name
     * @param id the message id
     * @param payload the payload
     * @param delay how long from now the message is due
     * @return {@code id}
     * @deprecated {@code schedule(queue, "order-42", Duration.ofMinutes(5))} schedules the payload
     *             {@code "order-42"} under a random id, so this overload is easily mistaken: use
     *             {@link #scheduleWithId(String, String, Object, Duration)}; this method will be removed in a future
     *             release.
     */
    @Deprecated(forRemoval = true)
    default String schedule(String queue, String id, Object payload, Duration delay) {
        return scheduleWithId(queue, id, payload, delay);
    }

    /**
     * Schedules many messages in one round trip: each is an upsert by id, as
     * {@link #scheduleWithId(String, String, Object, Instant)}; of two messages with the same id the later one wins.
     * Every message is checked before anything is sent, so bad input stores nothing.
     *
     * <pre>{@code
     * queue.scheduleAll("order-timeout", List.of(
     *         ScheduledMessage.of("order-41", new OrderRef(41), in30Minutes),
     *         ScheduledMessage.of("order-42", new OrderRef(42), in30Minutes)));
     * }</pre>
     *
     * @param queue the queue name
     * @param messages the messages to store
     * @return the ids, in the order of {@code messages}
     * @throws IllegalArgumentException for a bad queue name, id or payload (nothing is stored)
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout, or when a required
     *         replica could not confirm the write
     */
    List<String> scheduleAll(String queue, List<ScheduledMessage> messages);

    /**
     * Schedules the message {@code id} at {@code dueAt} only if the queue holds no message with that id (waiting, in
     * flight or dead-lettered); otherwise leaves the existing message untouched.
     *
     * @param queue the queue name
     * @param id the message id
     * @param payload the payload
     * @param dueAt when the message is due; a time in the past means "now"
     * @return {@code true} if the message was scheduled, {@code false} if the id was taken (also when an attempt whose
     *         answer was lost in an outage had stored it)
     * @throws IllegalArgumentException for a bad queue name or id, or a payload that cannot be serialized or does not fit
     *         the queue's consumer
     * @throws NullPointerException when {@code dueAt} is {@code null}
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout, or when a required
     *         replica could not confirm the write
     */
    boolean scheduleIfAbsent(String queue, String id, Object payload, Instant dueAt);

    /**
     * Like {@link #scheduleIfAbsent(String, String, Object, Instant)}, due after {@code delay} (measured on the Redis
     * server).
     *
     * <pre>{@code
     * if (queue.scheduleIfAbsent("reminders", "cart-" + cartId, new CartRef(cartId), Duration.ofHours(1))) {
     *     log.info("reminder set");
     * }
     * }</pre>
     *
     * @param queue the queue name
     * @param id the message id
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return {@code true} if the message was scheduled, {@code false} if the id was taken
     * @throws IllegalArgumentException for a bad queue name or id, a negative delay, or a payload that cannot be
     *         serialized or does not fit the queue's consumer
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout, or when a required
     *         replica could not confirm the write
     */
    boolean scheduleIfAbsent(String queue, String id, Object payload, Duration delay);

    /**
     * Removes the message {@code id}, whether waiting, in flight (a running handler can then no longer acknowledge or
     * retry it) or dead-lettered. Inside a JTA transaction it takes effect on commit.
     *
     * @param queue the queue name
     * @param id the message id
     * @return {@code true} if a message was removed ({@code true} as well inside a transaction, where the removal is
     *         deferred)
     * @throws IllegalArgumentException for a bad queue name or id
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    boolean cancel(String queue, String id);

    /**
     * Makes the message {@code id} due at once: a waiting message is delivered as soon as a consumer claims it (its
     * attempts are kept), a dead letter is replayed with its attempts reset; a message in flight is left alone.
     * Consumers are woken at once. Handy in tests of code that schedules far in the future:
     *
     * <pre>{@code
     * queue.scheduleWithId("order-timeout", "order-42", new OrderRef(42), Duration.ofMinutes(30));
     * queue.deliverNow("order-timeout", "order-42"); // the @Delayed method receives it within moments
     * }</pre>
     *
     * @param queue the queue name
     * @param id the message id
     * @return {@code true} if a waiting or dead-lettered message was made due, {@code false} if the queue has no such
     *         message (unknown, already delivered, or in flight)
     * @throws IllegalArgumentException for a bad queue name or id
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    boolean deliverNow(String queue, String id);

    /**
     * The number of messages of {@code queue} not yet delivered successfully: waiting plus in flight, not counting
     * dead letters.
     *
     * @param queue the queue name
     * @return the number of waiting and in-flight messages
     * @throws IllegalArgumentException for a bad queue name
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    long size(String queue);

    /**
     * The number of dead letters of {@code queue}: messages whose attempts ran out.
     *
     * @param queue the queue name
     * @return the number of dead letters
     * @throws IllegalArgumentException for a bad queue name
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    long deadLetterCount(String queue);

    /**
     * The oldest dead letters of {@code queue}, with their payload and the reason they failed.
     *
     * <pre>{@code
     * for (DeadLetter letter : queue.deadLetters("order-timeout", 100)) {
     *     log.warnf("%s failed %d times: %s", letter.id(), letter.attempts(), letter.reason());
     * }
     * }</pre>
     *
     * @param queue the queue name
     * @param limit how many at most, 1 to 1000
     * @return the dead letters, oldest first
     * @throws IllegalArgumentException for a bad queue name or a limit out of range
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    List<DeadLetter> deadLetters(String queue, int limit);

    /**
     * Moves the dead letter {@code id} back to the queue, due now, with its attempts reset.
     *
     * @param queue the queue name
     * @param id the message id
     * @return {@code true} if there was such a dead letter
     * @throws IllegalArgumentException for a bad queue name or id
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    boolean replay(String queue, String id);

    /**
     * Moves every dead letter of {@code queue} back to the queue, due now, with attempts reset; in bounded batches, so
     * a large dead-letter set never blocks Redis.
     *
     * @param queue the queue name
     * @return how many messages were replayed
     * @throws IllegalArgumentException for a bad queue name
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    long replayDeadLetters(String queue);

    /**
     * Deletes the dead letter {@code id} for good.
     *
     * @param queue the queue name
     * @param id the message id
     * @return {@code true} if there was such a dead letter
     * @throws IllegalArgumentException for a bad queue name or id
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    boolean purge(String queue, String id);

    /**
     * Deletes every dead letter of {@code queue}, in bounded batches.
     *
     * @param queue the queue name
     * @return how many dead letters were deleted
     * @throws IllegalArgumentException for a bad queue name
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    long purgeDeadLetters(String queue);
}
