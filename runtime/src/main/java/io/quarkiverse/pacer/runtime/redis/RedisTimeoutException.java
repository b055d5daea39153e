package io.quarkiverse.pacer.runtime.redis;

/**
 * Redis did not answer within the time budget of the call.
 */
public class RedisTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RedisTimeoutException(String message) {
        super(message);
    }

    public RedisTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
