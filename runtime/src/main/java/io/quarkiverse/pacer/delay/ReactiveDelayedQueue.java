package io.quarkiverse.pacer.delay;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.smallrye.mutiny.Uni;

// @formatter:off
/**
 * Schedules, cancels and inspects delayed messages without blocking: the reactive twin of {@link DelayedQueue}, safe
 * to use on a Vert.x event loop. Every returned {@link Uni} is lazy: nothing is sent to Redis until subscription.
 *
 * <pre>{@code
 * @Inject
 * ReactiveDelayedQueue queue;
 *
 * @POST
 * @Path("/orders")
 * public Uni<String> place(@RestQuery long id) {
 *     return queue.scheduleWithId("order-timeout", "order-" + id, new OrderRef(id), Duration.ofMinutes(30));
 * }
 * }</pre>
 *
 * <h2>Payloads, names and time</h2>
 * Payloads are serialized with the application's Jackson {@code ObjectMapper}; {@code String} is stored as UTF-8 and
 * {@code byte[]} as is. Due times are kept with millisecond precision; a {@link Duration} is added to the Redis server
 * clock, never the JVM clock, so instances with skewed clocks agree. Queue names and ids are non-empty strings.
 *
 * <h2>Failures</h2>
 * Bad input throws {@link IllegalArgumentException} at once, when the method is called, before a {@code Uni} is
 * returned. When Redis is unavailable, the call is made again for up to {@code quarkus.pacer.delayed.producer-timeout};
 * then the {@code Uni} fails with a {@link PacerRedisException} ({@link RedisUnavailableException},
 * {@link RedisTimeoutException} or {@link RedisOverloadedException}). With
 * {@code quarkus.pacer.delayed.durability=replicas}, a write no replica could confirm fails with
 * {@link DurabilityUnavailableException} (not stored) or {@link DurabilityUnconfirmedException} (stored, not
 * confirmed), both {@link PacerRedisException}s.
 *
 * @see Delayed
 */
// @formatter:on
public interface ReactiveDelayedQueue {

    /**
     * Schedules {@code payload} on {@code queue} for delivery after {@code delay} (measured on the Redis server), under
     * a generated id.
     *
     * @param queue the queue name
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return the generated message id (a unique UUID), usable with {@link #cancel(String, String)}
     * @throws IllegalArgumentException for a bad queue name, a negative delay, or a payload that cannot be serialized or
     *         does not fit the queue's consumer
     */
    Uni<String> schedule(String queue, Object payload, Duration delay);

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
     */
    Uni<String> schedule(String queue, Object payload, Instant dueAt);

    /**
     * Schedules, or reschedules, the message {@code id}: if a message with this id is already waiting, in flight or
     * dead-lettered, its payload and due time are replaced and its attempts reset (an upsert). A handler currently
     * running the old version can no longer acknowledge it.
     *
     * @param queue the queue name
     * @param id the message id, chosen by the caller
     * @param payload the payload
     * @param dueAt when the message is due; a time in the past means "now"
     * @return {@code id}
     * @throws IllegalArgumentException for a bad queue name or id, or a payload that cannot be serialized or does not fit
     *         the queue's consumer
     * @throws NullPointerException when {@code dueAt} is {@code null}
     */
    Uni<String> scheduleWithId(String queue, String id, Object payload, Instant dueAt);

    /**
     * Like {@link #scheduleWithId(String, String, Object, Instant)}, due after {@code delay} (measured on the Redis
     * server).
     *
     * @param queue the queue name
     * @param id the message id, chosen by the caller
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return {@code id}
     * @throws IllegalArgumentException for a bad queue name or id, a negative delay, or a payload that cannot be
     *         serialized or does not fit the queue's consumer
     */
    Uni<String> scheduleWithId(String queue, String id, Object payload, Duration delay);

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
    default Uni<String> schedule(String queue, String id, Object payload, Instant dueAt) {
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
    default Uni<String> schedule(String queue, String id, Object payload, Duration delay) {
        return scheduleWithId(queue, id, payload, delay);
    }

    /**
     * Schedules many messages in one round trip: each is an upsert by id, exactly as
     * {@link #scheduleWithId(String, String, Object, Instant)}; of two messages with the same id the later one wins.
     * Every message is checked (id, payload) before anything is sent, so bad input stores nothing. Each shard's
     * messages are stored by atomic script calls of up to 1,000 messages, all written to Redis at once.
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
     */
    Uni<List<String>> scheduleAll(String queue, List<ScheduledMessage> messages);

    /**
     * Schedules the message {@code id} only if the queue holds no message with that id (waiting, in flight or
     * dead-lettered); otherwise leaves the existing message untouched.
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
     */
    Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Instant dueAt);

    /**
     * Like {@link #scheduleIfAbsent(String, String, Object, Instant)} with a delay measured on the Redis server.
     *
     * @param queue the queue name
     * @param id the message id
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return {@code true} if the message was scheduled, {@code false} if the id was taken
     * @throws IllegalArgumentException for a bad queue name or id, a negative delay, or a payload that cannot be
     *         serialized or does not fit the queue's consumer
     */
    Uni<Boolean> scheduleIfAbsent(String queue, String id, Object payload, Duration delay);

    /**
     * Removes the message {@code id}, whether waiting, in flight (a running handler can then no longer acknowledge or
     * retry it) or dead-lettered.
     *
     * @param queue the queue name
     * @param id the message id
     * @return {@code true} if a message was removed
     * @throws IllegalArgumentException for a bad queue name or id
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
     * queue.scheduleWithId("order-timeout", "order-42", new OrderRef(42), Duration.ofMinutes(30))
     *         .chain(() -> queue.deliverNow("order-timeout", "order-42"));
     * }</pre>
     *
     * @param queue the queue name
     * @param id the message id
     * @return {@code true} if a waiting or dead-lettered message was made due, {@code false} if the queue has no such
     *         message (unknown, already delivered, or in flight)
     * @throws IllegalArgumentException for a bad queue name or id
     */
    Uni<Boolean> deliverNow(String queue, String id);

    /**
     * The number of messages of {@code queue} not yet delivered successfully: waiting plus in flight, not counting
     * dead letters.
     *
     * @param queue the queue name
     * @return the number of waiting and in-flight messages
     * @throws IllegalArgumentException for a bad queue name
     */
    Uni<Long> size(String queue);

    /**
     * The number of dead letters of {@code queue}.
     *
     * @param queue the queue name
     * @return the number of dead letters
     * @throws IllegalArgumentException for a bad queue name
     */
    Uni<Long> deadLetterCount(String queue);

    /**
     * The oldest dead letters of {@code queue}, at most {@code limit}.
     *
     * @param queue the queue name
     * @param limit how many at most, 1 to 1000
     * @return the dead letters, oldest first
     * @throws IllegalArgumentException for a bad queue name or a limit out of range
     */
    Uni<List<DeadLetter>> deadLetters(String queue, int limit);

    /**
     * Moves the dead letter {@code id} back to the queue, due now, with its attempts reset.
     *
     * @param queue the queue name
     * @param id the message id
     * @return {@code true} if there was such a dead letter
     * @throws IllegalArgumentException for a bad queue name or id
     */
    Uni<Boolean> replay(String queue, String id);

    /**
     * Moves every dead letter of {@code queue} back to the queue, due now, with attempts reset. Works in bounded
     * batches, so a large dead-letter set never blocks Redis.
     *
     * @param queue the queue name
     * @return how many messages were replayed
     * @throws IllegalArgumentException for a bad queue name
     */
    Uni<Long> replayDeadLetters(String queue);

    /**
     * Deletes the dead letter {@code id} for good.
     *
     * @param queue the queue name
     * @param id the message id
     * @return {@code true} if there was such a dead letter
     * @throws IllegalArgumentException for a bad queue name or id
     */
    Uni<Boolean> purge(String queue, String id);

    /**
     * Deletes every dead letter of {@code queue}, in bounded batches.
     *
     * @param queue the queue name
     * @return how many dead letters were deleted
     * @throws IllegalArgumentException for a bad queue name
     */
    Uni<Long> purgeDeadLetters(String queue);
}
