package io.quarkiverse.pacer.runtime.redis;

/**
 * Redis cannot be reached or the connection to it was lost: the call was not decided by Redis.
 */
public class RedisUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RedisUnavailableException(String message) {
        super(message);
    }

    public RedisUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
