package io.quarkiverse.pacer.runtime.delay.consumer;

/**
 * Counters of one queue's consumer in this instance since startup, for metrics, the Dev UI and tests.
 *
 * @param queue the queue
 * @param claims claim script calls that returned
 * @param largestClaim the most messages one claim returned (never above the batch size)
 * @param claimed messages claimed
 * @param delivered handler invocations that succeeded
 * @param failed handler invocations that failed
 * @param retried failures rescheduled with backoff
 * @param deadLettered messages dead-lettered (handler failures and undecodable payloads)
 * @param reclaimed expired leases of other (dead or stalled) consumers this instance returned to the queue
 * @param maxLatenessMillis the largest delay seen between a message's due time and its claim
 * @param throttled handler invocations rejected by {@code @Throttled}, rescheduled at the retry-after without counting
 *        an attempt
 */
public record DelayedConsumerStats(String queue, long claims, long largestClaim, long claimed, long delivered,
        long failed, long retried, long deadLettered, long reclaimed, long maxLatenessMillis, long throttled) {
}
