package io.quarkiverse.pacer.delay;

/**
 * More calls wait for Redis on this instance than Pacer queues: nothing was sent, so the call can be made again
 * once the load eases.
 */
public class RedisOverloadedException extends PacerRedisException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed and why
     */
    public RedisOverloadedException(String message) {
        super(message, null);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed and why
     * @param cause the underlying failure
     */
    public RedisOverloadedException(String message, Throwable cause) {
        super(message, cause);
    }
}
