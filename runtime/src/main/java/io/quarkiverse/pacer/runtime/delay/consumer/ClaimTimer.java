package io.quarkiverse.pacer.runtime.delay.consumer;

/**
 * The one Vert.x timer of a shard's loop that triggers its next claim: armed for the earliest time asked, a later
 * request never postpones it. Confined to the consumer's context.
 */
final class ClaimTimer {

    private final QueueConsumer consumer;
    private final Runnable claim;
    private long timerId = -1;
    private long firesAt = Long.MAX_VALUE;

    ClaimTimer(QueueConsumer consumer, Runnable claim) {
        this.consumer = consumer;
        this.claim = claim;
    }

    /** Claims in {@code delayMillis} (at least 1), unless the timer already fires sooner. */
    void armIn(long delayMillis) {
        long at = System.currentTimeMillis() + delayMillis;
        if (timerId != -1) {
            if (firesAt <= at) {
                return;
            }
            consumer.vertx.cancelTimer(timerId);
        }
        firesAt = at;
        timerId = consumer.vertx.setTimer(Math.max(1, delayMillis), id -> {
            if (timerId == id) {
                timerId = -1;
                firesAt = Long.MAX_VALUE;
                claim.run();
            }
        });
    }

    void cancel() {
        if (timerId != -1) {
            consumer.vertx.cancelTimer(timerId);
            timerId = -1;
            firesAt = Long.MAX_VALUE;
        }
    }
}
