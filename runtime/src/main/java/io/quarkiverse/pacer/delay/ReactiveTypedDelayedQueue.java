package io.quarkiverse.pacer.delay;

import java.time.Duration;
import java.time.Instant;

import io.smallrye.mutiny.Uni;

// @formatter:off
/**
 * A non-blocking handle on one delay queue whose payloads are of type {@code T}: the typed form of
 * {@link ReactiveDelayedQueue}, safe on a Vert.x event loop. Inject it with {@link DelayedQueueName}; the build checks
 * that the queue's {@link Delayed} consumer takes a {@code T} (or a {@code DelayedMessage<T>}).
 *
 * <pre>{@code
 * @Inject
 * @DelayedQueueName("order-timeout")
 * ReactiveTypedDelayedQueue<OrderRef> timeouts;
 *
 * @POST
 * @Path("/orders")
 * public Uni<String> place(@RestQuery long id) {
 *     return timeouts.scheduleWithId("order-" + id, new OrderRef(id), Duration.ofMinutes(30));
 * }
 * }</pre>
 *
 * Every method behaves as the {@link ReactiveDelayedQueue} method of the same name on this queue: bad input throws
 * {@link IllegalArgumentException} at once, Redis failures fail the {@code Uni} with a {@link PacerRedisException}.
 *
 * @param <T> the payload type of the queue's consumer
 */
// @formatter:on
public interface ReactiveTypedDelayedQueue<T> {

    /**
     * The name of this queue.
     *
     * @return the queue name
     */
    String queue();

    /**
     * Schedules {@code payload} for delivery after {@code delay}, under a generated id.
     *
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return the generated message id
     * @throws IllegalArgumentException for a negative delay or a payload that cannot be serialized
     */
    Uni<String> schedule(T payload, Duration delay);

    /**
     * Schedules {@code payload} for delivery at {@code dueAt}, under a generated id.
     *
     * @param payload the payload
     * @param dueAt when the message is due; a time in the past means "now"
     * @return the generated message id
     * @throws IllegalArgumentException for a payload that cannot be serialized
     */
    Uni<String> schedule(T payload, Instant dueAt);

    /**
     * Schedules, or reschedules, the message {@code id} (an upsert).
     *
     * @param id the message id, chosen by the caller
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return {@code id}
     * @throws IllegalArgumentException for a bad id, a negative delay or a payload that cannot be serialized
     */
    Uni<String> scheduleWithId(String id, T payload, Duration delay);

    /**
     * Schedules, or reschedules, the message {@code id} (an upsert).
     *
     * @param id the message id, chosen by the caller
     * @param payload the payload
     * @param dueAt when the message is due; a time in the past means "now"
     * @return {@code id}
     * @throws IllegalArgumentException for a bad id or a payload that cannot be serialized
     */
    Uni<String> scheduleWithId(String id, T payload, Instant dueAt);

    /**
     * Schedules the message {@code id} only if the queue holds no message with that id.
     *
     * @param id the message id
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return {@code true} if the message was scheduled, {@code false} if the id was taken
     * @throws IllegalArgumentException for a bad id, a negative delay or a payload that cannot be serialized
     */
    Uni<Boolean> scheduleIfAbsent(String id, T payload, Duration delay);

    /**
     * Removes the message {@code id}, whatever its state.
     *
     * @param id the message id
     * @return {@code true} if a message was removed
     * @throws IllegalArgumentException for a bad id
     */
    Uni<Boolean> cancel(String id);

    /**
     * Makes the message {@code id} due at once.
     *
     * @param id the message id
     * @return {@code true} if a waiting or dead-lettered message was made due
     * @throws IllegalArgumentException for a bad id
     */
    Uni<Boolean> deliverNow(String id);

    /**
     * The number of messages of this queue waiting or in flight.
     *
     * @return the number of waiting and in-flight messages
     */
    Uni<Long> size();
}
