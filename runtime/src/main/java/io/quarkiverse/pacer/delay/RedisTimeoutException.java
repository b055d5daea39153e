package io.quarkiverse.pacer.delay;

/**
 * Redis did not answer within the time budget of the call ({@code quarkus.pacer.redis.timeout}), or no connection to
 * it could be made in that time. A write may or may not have been applied: repeat it by id (an upsert) when that
 * matters.
 */
public class RedisTimeoutException extends PacerRedisException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed and why
     */
    public RedisTimeoutException(String message) {
        super(message, null);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed and why
     * @param cause the underlying failure
     */
    public RedisTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
