package io.quarkiverse.pacer.delay;

// @formatter:off
/**
 * A {@code schedule} with {@code quarkus.pacer.delayed.durability=replicas} was stored by the Redis master, but no
 * replica confirmed it within {@code quarkus.pacer.delayed.durability-timeout}, or the connection or the master was
 * lost before {@code WAIT} answered (also when the call, made again after that, found the master that took over
 * without a replica). The message may be delivered (the master kept it, or a replica had it after all)
 * or lost (a failover to a replica that never had it). Scheduling it again with the same id is safe: it is an upsert.
 *
 * <pre>{@code
 * try {
 *     queue.scheduleWithId("orders", "order-42", order, Duration.ofMinutes(30));
 * } catch (DurabilityUnconfirmedException e) {
 *     // stored, but a failover could still lose it: schedule it again later, with the same id
 * }
 * }</pre>
 */
// @formatter:on
public class DurabilityUnconfirmedException extends PacerRedisException {

    private static final long serialVersionUID = 1L;

    /** The delay queue. */
    private final String queue;

    /**
     * Creates the exception.
     *
     * @param queue the delay queue
     * @param message the whole message
     * @param cause why {@code WAIT} failed, or {@code null} when it timed out
     */
    public DurabilityUnconfirmedException(String queue, String message, Throwable cause) {
        super(message, cause);
        this.queue = queue;
    }

    /**
     * The delay queue.
     *
     * @return the queue's name
     */
    public String queue() {
        return queue;
    }
}
