package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** What one shard's loop counted since startup; written on its context, read from any thread. */
final class ConsumerCounters {

    final AtomicLong claims = new AtomicLong();
    final AtomicLong largestClaim = new AtomicLong();
    final AtomicLong claimed = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong retried = new AtomicLong();
    final AtomicLong deadLettered = new AtomicLong();
    final AtomicLong throttled = new AtomicLong();
    final AtomicLong reclaimed = new AtomicLong();
    final AtomicLong maxLatenessMillis = new AtomicLong();

    /** A claim returned {@code count} messages and reclaimed {@code reclaimedNow} expired leases. */
    void claimed(int count, int reclaimedNow) {
        claims.incrementAndGet();
        largestClaim.accumulateAndGet(count, Math::max);
        claimed.addAndGet(count);
        reclaimed.addAndGet(reclaimedNow);
    }

    void lateness(long millis) {
        maxLatenessMillis.accumulateAndGet(millis, Math::max);
    }

    DelayedConsumerStats snapshot(String queue) {
        return new DelayedConsumerStats(queue, claims.get(), largestClaim.get(), claimed.get(), delivered.get(),
                failed.get(), retried.get(), deadLettered.get(), reclaimed.get(), maxLatenessMillis.get(),
                throttled.get());
    }

    /** The counters of a queue's shards as one: sums, except the largest claim and the lateness, which are maxima. */
    static DelayedConsumerStats sum(String queue, List<DelayedConsumerStats> shards) {
        long claims = 0, largestClaim = 0, claimed = 0, delivered = 0, failed = 0, retried = 0, deadLettered = 0,
                reclaimed = 0, maxLateness = 0, throttled = 0;
        for (DelayedConsumerStats s : shards) {
            claims += s.claims();
            largestClaim = Math.max(largestClaim, s.largestClaim());
            claimed += s.claimed();
            delivered += s.delivered();
            failed += s.failed();
            retried += s.retried();
            deadLettered += s.deadLettered();
            reclaimed += s.reclaimed();
            maxLateness = Math.max(maxLateness, s.maxLatenessMillis());
            throttled += s.throttled();
        }
        return new DelayedConsumerStats(queue, claims, largestClaim, claimed, delivered, failed, retried, deadLettered,
                reclaimed, maxLateness, throttled);
    }
}
