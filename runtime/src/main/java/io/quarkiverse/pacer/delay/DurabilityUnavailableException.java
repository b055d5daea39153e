package io.quarkiverse.pacer.delay;

/**
 * A {@code schedule} with {@code quarkus.pacer.delayed.durability=replicas} was refused at once because the Redis
 * master of its shard has no connected replica (on Redis Cluster, typically a replica promoted after its master
 * failed, until a new replica joins it). The message was <b>not stored</b>: scheduling it again is safe, and succeeds
 * once a replica is connected to that master, or on another shard. Other shards are not affected. It is a
 * {@link PacerRedisException}, so code that handles Redis failures by scheduling again later handles it too.
 *
 * <pre>{@code
 * try {
 *     queue.scheduleWithId("orders", "order-42", order, Duration.ofMinutes(30));
 * } catch (DurabilityUnavailableException e) {
 *     // not stored: retry later, or alert the operator to add a replica to e.node()
 * }
 * }</pre>
 */
public class DurabilityUnavailableException extends PacerRedisException {

    private static final long serialVersionUID = 1L;

    /** The delay queue. */
    private final String queue;
    /** The shard of the queue whose master has no replica. */
    private final int shard;
    /** The master without a replica. */
    private final String node;

    /**
     * Creates the exception.
     *
     * @param queue the delay queue
     * @param shard the shard of the queue the message belongs to
     * @param node the Redis master of that shard, {@code host:port}
     * @param message the whole message
     * @param cause what the connection layer reported
     */
    public DurabilityUnavailableException(String queue, int shard, String node, String message, Throwable cause) {
        super(message, cause);
        this.queue = queue;
        this.shard = shard;
        this.node = node;
    }

    /**
     * The delay queue.
     *
     * @return the queue's name
     */
    public String queue() {
        return queue;
    }

    /**
     * The shard of the queue whose master has no replica.
     *
     * @return the shard, from 0
     */
    public int shard() {
        return shard;
    }

    /**
     * The Redis master without a replica.
     *
     * @return {@code host:port}, or the Redis client's name on a standalone or Sentinel Redis
     */
    public String node() {
        return node;
    }
}
