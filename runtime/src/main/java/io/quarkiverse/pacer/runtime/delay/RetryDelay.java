package io.quarkiverse.pacer.runtime.delay;

import io.quarkiverse.pacer.runtime.delay.producer.ProducerRetry;

/**
 * How long a consumer (or a producer, {@link ProducerRetry}) waits before repeating a Redis call that failed (a claim,
 * an ack, a nack, a schedule): 20 ms after the
 * first failure, doubling with each further one, at most a second, plus up to a fifth at random so that the consumers
 * of many instances do not retry in step after a failover.
 */
public final class RetryDelay {

    static final long FIRST_MILLIS = 20;
    static final long CAP_MILLIS = 1000;

    private RetryDelay() {
    }

    /**
     * @param failures the failures in a row so far, at least 1
     * @param random a random number in [0, 1)
     */
    public static long afterFailures(int failures, double random) {
        long delay = Math.min(CAP_MILLIS, FIRST_MILLIS << Math.min(Math.max(failures, 1) - 1, 6));
        return delay + (long) (delay * 0.2 * random);
    }
}
