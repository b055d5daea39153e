package io.quarkiverse.pacer.delay;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.smallrye.mutiny.Uni;

/**
 * Schedules, cancels and inspects delayed messages without blocking: the reactive twin of {@link DelayedQueue}, safe
 * to use on a Vert.x event loop. Every returned {@link Uni} is lazy (nothing is sent to Redis until subscription).
 *
 * <pre>
 * {@code
 * &#64;Inject
 * ReactiveDelayedQueue queue;
 *
 * @POST
 * &#64;Path("/orders/{id}")
 * public Uni<String> place(long id) {
 *     return queue.schedule("order-timeout", "order-" + id, new OrderRef(id), Duration.ofMinutes(30));
 * }
 * }
 * </pre>
 *
 * <p>
 * Payloads are serialized with the application's Jackson {@code ObjectMapper}; {@code String} is stored as UTF-8 and
 * {@code byte[]} as is. A payload that cannot be serialized fails with {@link IllegalArgumentException}. Due times are
 * kept with millisecond precision; a {@link Duration} is added to the Redis server clock, never the JVM clock, so
 * instances with skewed clocks agree. Queue names and ids are non-empty strings.
 *
 * @see Delayed
 */
public interface ReactiveDelayedQueue {

    /**
     * Schedules {@code payload} on {@code queue} for delivery after {@code delay} (measured on the Redis server).
     *
     * @return the generated message id (a random UUID), usable with {@link #cancel(String, String)}
     */
    Uni<String> schedule(String queue, Object payload, Duration delay);

    /**
     * Schedules {@code payload} on {@code queue} for delivery at {@code dueAt}; a time in the past means "now".
     *
     * @return the generated message id (a random UUID)
     */
    Uni<String> schedule(String queue, Object payload, Instant dueAt);

    /**
     * Schedules, or reschedules, the message {@code id}: if a message with this id is already waiting, in flight or
     * dead-lettered, its payload and due time are replaced and its attempts reset (an upsert). A handler currently
     * running the old version can no longer acknowledge it.
     *
     * @return {@code id}
     */
    Uni<String> schedule(String queue, String id, Object payload, Instant dueAt);

    /**
     * Like {@link #schedule(String, String, Object, Instant)} with a delay measured on the Redis server.
     *
     * @return {@code id}
     */
    Uni<String> schedule(String queue, String id, Object payload, Duration delay);

    /**
     * Schedules many messages in one round trip: each is an upsert by id, exactly as
     * {@link #schedule(String, String, Object, Instant)}; of two messages with the same id the later one wins. Every
     * message is checked (id, payload) before anything is sent, so bad input stores nothing. Each shard's messages are
     * stored by atomic script calls of up to 1,000 messages, all written to Redis at once.
     *
     * <pre>{@code
     * queue.scheduleAll("order-timeout", List.of(
     *         ScheduledMessage.of("order-41", new OrderRef(41), in30Minutes),
     *         ScheduledMessage.of("order-42", new OrderRef(42), in30Minutes)));
     * }</pre>
     *
     * @return the ids, in the order of {@code messages}
     */
    Uni<List<String>> scheduleAll(String queue, List<ScheduledMessage> messages);

    /**
     * Schedules the message {@code id} only if the queue holds no message with that id (waiting, in flight or
     * dead-lettered); otherwise leaves the existing message untouched.
     *
     * @return {@code true} if the message was scheduled, {@code false} if the id was taken
     */
    Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Instant dueAt);

    /**
     * Like {@link #scheduleIfAbsent(String, String, Object, Instant)} with a delay measured on the Redis server.
     */
    Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Duration delay);

    /**
     * Removes the message {@code id}, whether waiting, in flight (a running handler can then no longer acknowledge or
     * retry it) or dead-lettered.
     *
     * @return {@code true} if a message was removed
     */
    Uni<Boolean> cancel(String queue, String id);

    /**
     * Makes the message {@code id} due at once: a waiting message is delivered as soon as a consumer claims it
     * (its attempts are kept), a dead letter is moved back to the queue with its attempts reset, like
     * {@link #replay(String, String)}. A message in flight is already being delivered and is left alone. Consumers
     * are woken at once, so delivery does not wait for the poll interval.
     * <p>
     * Handy in tests of code that schedules far in the future: schedule with a known id, then deliver it now instead of
     * waiting.
     *
     * <pre>{@code
     * queue.schedule("order-timeout", "order-42", new OrderRef(42), Duration.ofMinutes(30))
     *         .chain(() -> queue.deliverNow("order-timeout", "order-42"));
     * }</pre>
     *
     * @return {@code true} if a waiting or dead-lettered message was made due, {@code false} if the queue has no such
     *         message (unknown, already delivered, or in flight)
     */
    Uni<Boolean> deliverNow(String queue, String id);

    /**
     * The number of messages of {@code queue} not yet delivered successfully: waiting plus in flight, not counting
     * dead letters.
     */
    Uni<Long> size(String queue);

    /**
     * The number of dead letters of {@code queue}.
     */
    Uni<Long> deadLetterCount(String queue);

    /**
     * The oldest dead letters of {@code queue}, at most {@code limit} (1 to 1000).
     */
    Uni<List<DeadLetter>> deadLetters(String queue, int limit);

    /**
     * Moves the dead letter {@code id} back to the queue, due now, with its attempts reset.
     *
     * @return {@code true} if there was such a dead letter
     */
    Uni<Boolean> replay(String queue, String id);

    /**
     * Moves every dead letter of {@code queue} back to the queue, due now, with attempts reset. Works in bounded
     * batches, so a large dead-letter set never blocks Redis.
     *
     * @return how many messages were replayed
     */
    Uni<Long> replayDeadLetters(String queue);

    /**
     * Deletes the dead letter {@code id} for good.
     *
     * @return {@code true} if there was such a dead letter
     */
    Uni<Boolean> purge(String queue, String id);

    /**
     * Deletes every dead letter of {@code queue}, in bounded batches.
     *
     * @return how many dead letters were deleted
     */
    Uni<Long> purgeDeadLetters(String queue);
}
