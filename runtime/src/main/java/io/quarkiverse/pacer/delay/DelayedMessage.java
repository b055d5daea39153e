package io.quarkiverse.pacer.delay;

import java.time.Instant;
import java.util.Objects;

// @formatter:off
/**
 * One delivery of a delayed message, the alternative parameter type of a {@link Delayed} method when the handler needs
 * more than the payload.
 *
 * <pre>{@code
 * @Delayed("order-timeout")
 * void expire(DelayedMessage<OrderRef> message) {
 *     if (message.attempt() > 1) {
 *         log.infof("retrying %s, due at %s", message.id(), message.dueAt());
 *     }
 *     orders.cancelIfUnpaid(message.payload().id());
 * }
 * }</pre>
 *
 * @param id the message id: the one given to {@link DelayedQueue#scheduleWithId(String, String, Object, Instant)}, or the
 *        generated one returned by the other {@code schedule} methods
 * @param queue the queue name
 * @param payload the decoded payload
 * @param dueAt when the message became due (for a retry: when the retry became due)
 * @param attempt the handling attempt, {@code 1} for the first delivery; it grows only when the handler fails
 * @param redeliveries how many times the message came back because a consumer's lease expired (the consumer died or
 *        stalled) rather than because the handler failed; {@code 0} normally
 * @param <T> the payload type
 */
// @formatter:on
public record DelayedMessage<T>(String id, String queue, T payload, Instant dueAt, int attempt, int redeliveries) {

    /**
     * Checks the required components.
     *
     * @throws NullPointerException when {@code id} or {@code queue} is {@code null}
     * @param id the message id
     * @param queue the queue name
     * @param payload the decoded payload
     * @param dueAt when the message was due
     * @param attempt the attempt, from 1
     * @param redeliveries how many times its lease expired
     */
    public DelayedMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(dueAt, "dueAt");
    }
}
