package io.quarkiverse.pacer.throttle;

/**
 * The state stored under a throttling key cannot be read by Pacer's script even after Pacer deleted it: something
 * else writes under Pacer's key prefix ({@code quarkus.pacer.key-prefix}). The call is neither admitted nor rejected
 * by the {@code on-redis-failure} fallback; the caller gets this error, naming the Redis keys.
 */
public class CorruptedThrottleStateException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which keys cannot be read, and why
     * @param cause the error Redis answered
     */
    public CorruptedThrottleStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
