package io.quarkiverse.pacer.delay;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One message of a bulk {@link DelayedQueue#scheduleAll(String, java.util.List) scheduleAll}: its id, payload and due
 * time. Scheduling it is an upsert by id, exactly as {@link DelayedQueue#scheduleWithId(String, String, Object, Instant)}.
 *
 * <pre>{@code
 * List<ScheduledMessage> reminders = orders.stream()
 *         .map(order -> ScheduledMessage.of("order-" + order.id(), new OrderRef(order.id()), order.expiresAt()))
 *         .toList();
 * queue.scheduleAll("order-timeout", reminders); // one round trip for all of them
 * }</pre>
 *
 * @param id the message id (non-empty); a message of the queue with this id is replaced
 * @param payload the payload, serialized as for {@code schedule}
 * @param dueAt when the message is due; a time in the past means "now"
 */
public record ScheduledMessage(String id, Object payload, Instant dueAt) {

    /**
     * Checks the required components.
     *
     * @throws NullPointerException when {@code id} or {@code dueAt} is {@code null}
     * @param id the message id
     * @param payload the payload
     * @param dueAt when the message is due
     */
    public ScheduledMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(dueAt, "dueAt");
    }

    /**
     * A message with the given id.
     *
     * @param id the message id
     * @param payload the payload
     * @param dueAt when the message is due
     * @return the message
     */
    public static ScheduledMessage of(String id, Object payload, Instant dueAt) {
        return new ScheduledMessage(id, payload, dueAt);
    }

    /**
     * A message with a generated id (a random UUID).
     *
     * @param payload the payload
     * @param dueAt when the message is due
     * @return the message
     */
    public static ScheduledMessage of(Object payload, Instant dueAt) {
        return new ScheduledMessage(UUID.randomUUID().toString(), payload, dueAt);
    }
}
