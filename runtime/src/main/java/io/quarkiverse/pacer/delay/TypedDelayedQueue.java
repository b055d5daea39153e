package io.quarkiverse.pacer.delay;

import java.time.Duration;
import java.time.Instant;

// @formatter:off
/**
 * A handle on one delay queue whose payloads are of type {@code T}, blocking the calling thread: the typed form of
 * {@link DelayedQueue}. Inject it with {@link DelayedQueueName}; the build checks that the queue's {@link Delayed}
 * consumer takes a {@code T} (or a {@code DelayedMessage<T>}), so a producer and its consumer cannot drift apart.
 *
 * <pre>{@code
 * @Inject
 * @DelayedQueueName("order-timeout")
 * TypedDelayedQueue<OrderRef> timeouts;
 *
 * void placeOrder(long orderId) {
 *     timeouts.scheduleWithId("order-" + orderId, new OrderRef(orderId), Duration.ofMinutes(30));
 * }
 *
 * // the consumer
 * @Delayed("order-timeout")
 * void expire(OrderRef order) {
 *     orders.expireIfUnpaid(order.id());
 * }
 * }</pre>
 *
 * Every method behaves as the {@link DelayedQueue} method of the same name on this queue, with the same exceptions: it
 * refuses to run on a Vert.x event loop ({@link IllegalStateException}; use {@link ReactiveTypedDelayedQueue} there),
 * and fails with a {@link PacerRedisException} when Redis stays unavailable longer than
 * {@code quarkus.pacer.delayed.producer-timeout}.
 *
 * @param <T> the payload type of the queue's consumer
 */
// @formatter:on
public interface TypedDelayedQueue<T> {

    /**
     * The name of this queue.
     *
     * @return the queue name
     */
    String queue();

    /**
     * Schedules {@code payload} for delivery after {@code delay}, under a generated id; see
     * {@link DelayedQueue#schedule(String, Object, Duration)}.
     *
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return the generated message id
     * @throws IllegalArgumentException for a negative delay or a payload that cannot be serialized
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    String schedule(T payload, Duration delay);

    /**
     * Schedules {@code payload} for delivery at {@code dueAt}, under a generated id; see
     * {@link DelayedQueue#schedule(String, Object, Instant)}.
     *
     * @param payload the payload
     * @param dueAt when the message is due; a time in the past means "now"
     * @return the generated message id
     * @throws IllegalArgumentException for a payload that cannot be serialized
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    String schedule(T payload, Instant dueAt);

    /**
     * Schedules, or reschedules, the message {@code id} (an upsert); see
     * {@link DelayedQueue#scheduleWithId(String, String, Object, Duration)}.
     *
     * @param id the message id, chosen by the caller
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return {@code id}
     * @throws IllegalArgumentException for a bad id, a negative delay or a payload that cannot be serialized
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    String scheduleWithId(String id, T payload, Duration delay);

    /**
     * Schedules, or reschedules, the message {@code id} (an upsert); see
     * {@link DelayedQueue#scheduleWithId(String, String, Object, Instant)}.
     *
     * @param id the message id, chosen by the caller
     * @param payload the payload
     * @param dueAt when the message is due; a time in the past means "now"
     * @return {@code id}
     * @throws IllegalArgumentException for a bad id or a payload that cannot be serialized
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    String scheduleWithId(String id, T payload, Instant dueAt);

    /**
     * Schedules the message {@code id} only if the queue holds no message with that id; see
     * {@link DelayedQueue#scheduleIfAbsent(String, String, Object, Duration)}.
     *
     * @param id the message id
     * @param payload the payload
     * @param delay how long from now the message is due; zero or positive
     * @return {@code true} if the message was scheduled, {@code false} if the id was taken
     * @throws IllegalArgumentException for a bad id, a negative delay or a payload that cannot be serialized
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    boolean scheduleIfAbsent(String id, T payload, Duration delay);

    /**
     * Removes the message {@code id}, whatever its state; see {@link DelayedQueue#cancel(String, String)}.
     *
     * @param id the message id
     * @return {@code true} if a message was removed
     * @throws IllegalArgumentException for a bad id
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    boolean cancel(String id);

    /**
     * Makes the message {@code id} due at once; see {@link DelayedQueue#deliverNow(String, String)}.
     *
     * @param id the message id
     * @return {@code true} if a waiting or dead-lettered message was made due
     * @throws IllegalArgumentException for a bad id
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis stays unavailable longer than the producer timeout
     */
    boolean deliverNow(String id);

    /**
     * The number of messages of this queue waiting or in flight; see {@link DelayedQueue#size(String)}.
     *
     * @return the number of waiting and in-flight messages
     * @throws IllegalStateException on a Vert.x event-loop thread
     * @throws PacerRedisException when Redis is unavailable
     */
    long size();
}
