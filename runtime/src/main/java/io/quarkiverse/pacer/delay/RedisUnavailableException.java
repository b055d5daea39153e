package io.quarkiverse.pacer.delay;

/**
 * Redis cannot be reached, or the connection to it was lost: the call was not decided by Redis. When the connection
 * was lost after the call was sent, the message says so, and a write may or may not have been applied.
 */
public class RedisUnavailableException extends PacerRedisException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed and why
     */
    public RedisUnavailableException(String message) {
        super(message, null);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed and why
     * @param cause the underlying failure
     */
    public RedisUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
