package io.quarkiverse.pacer.runtime.redis;

/**
 * A durable write was refused before its script ran: the Redis master it goes to has no connected replica, so no
 * {@code WAIT} could confirm it. Nothing was written.
 */
public class NoReplicaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String node;

    public NoReplicaException(String node) {
        super("Redis master " + node + " has no connected replica");
        this.node = node;
    }

    /** The master, {@code host:port} (or the client's name on a standalone or Sentinel Redis). */
    public String node() {
        return node;
    }
}
