package io.quarkiverse.pacer.delay;

/**
 * Redis could not carry out a Pacer call: it is unreachable ({@link RedisUnavailableException}), did not answer in time
 * ({@link RedisTimeoutException}), more calls wait for it on this instance than Pacer queues
 * ({@link RedisOverloadedException}), or, with {@code quarkus.pacer.delayed.durability=replicas}, a write was refused
 * because the master of its shard has no replica ({@link DurabilityUnavailableException}) or no replica confirmed it
 * ({@link DurabilityUnconfirmedException}). Catch this type to handle them all alike.
 * <p>
 * {@link DelayedQueue} and {@link ReactiveDelayedQueue} calls first ride out a short outage (for
 * {@code quarkus.pacer.delayed.producer-timeout}) and throw only when it lasts longer. Rate-limit decisions
 * ({@code io.quarkiverse.pacer.throttle.Throttled} methods, {@code Throttler.acquire}) never throw it: they follow
 * {@code quarkus.pacer.throttle.on-redis-failure} instead; the administrative calls of {@code Throttler}
 * ({@code reset}, {@code override}, ...) do throw it.
 *
 * <pre>{@code
 * try {
 *     queue.scheduleWithId("order-timeout", "order-42", new OrderRef(42), Duration.ofMinutes(30));
 * } catch (PacerRedisException e) {
 *     // not stored, or not known to be stored: scheduling by id again is safe (an upsert)
 *     outbox.retryLater(42);
 * }
 * }</pre>
 */
public class PacerRedisException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed and why
     * @param cause the underlying failure, or {@code null}
     */
    protected PacerRedisException(String message, Throwable cause) {
        super(message, cause);
    }
}
