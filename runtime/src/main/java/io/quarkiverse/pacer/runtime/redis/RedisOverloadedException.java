package io.quarkiverse.pacer.runtime.redis;

/**
 * More requests wait for Redis than Pacer queues; nothing was sent.
 */
public class RedisOverloadedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RedisOverloadedException(String message) {
        super(message);
    }

    public RedisOverloadedException(String message, Throwable cause) {
        super(message, cause);
    }
}
