package io.quarkiverse.pacer.runtime.delay.consumer;

import java.time.Duration;

import io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;

/**
 * A {@code @Delayed} method with the settings in force: the annotation's, overridden by
 * {@code quarkus.pacer.delayed."<queue>".*}.
 *
 * @param definition what the build found
 * @param enabled whether this instance consumes the queue ({@code consumer.enabled} and the queue's {@code enabled})
 * @param concurrency messages handled at the same time per instance
 * @param maxAttempts handling attempts before dead-lettering
 * @param backoffMillis the delay before the first retry
 * @param leaseMillis how long a claimed message stays invisible to other consumers
 * @param batchSize most messages one claim returns ({@code quarkus.pacer.delayed.batch-size})
 */
public record ConsumerSettings(DelayedConsumerDefinition definition, boolean enabled, int concurrency, int maxAttempts,
        long backoffMillis, long leaseMillis, int batchSize) {

    /**
     * The shortest lease, in the annotation and in configuration: leases are renewed every third of it, and a
     * renewal must reach Redis before the lease ends.
     */
    public static final Duration MIN_LEASE = Duration.ofMillis(100);

    /**
     * Whether this instance consumes delay queues at all: {@code quarkus.pacer.delayed.enabled} and
     * {@code quarkus.pacer.delayed.consumer.enabled}.
     */
    public static boolean consumes(DelayedRuntimeConfig delayed) {
        return delayed.enabled() && delayed.consumer().enabled();
    }

    /** The annotation's settings with the configuration's overrides. */
    public static ConsumerSettings of(DelayedConsumerDefinition definition, DelayedRuntimeConfig delayed) {
        DelayedRuntimeConfig.QueueConfig overrides = delayed.queues().get(definition.getQueue());
        if (overrides == null) {
            return new ConsumerSettings(definition, consumes(delayed), definition.getConcurrency(),
                    definition.getMaxAttempts(), definition.getBackoffMillis(), definition.getLeaseMillis(),
                    delayed.batchSize());
        }
        return new ConsumerSettings(definition,
                consumes(delayed) && overrides.enabled(),
                overrides.concurrency().orElse(definition.getConcurrency()),
                overrides.maxAttempts().orElse(definition.getMaxAttempts()),
                overrides.backoff().map(Duration::toMillis).orElse(definition.getBackoffMillis()),
                overrides.lease().map(Duration::toMillis).orElse(definition.getLeaseMillis()),
                delayed.batchSize());
    }

    public String queue() {
        return definition.getQueue();
    }

    /**
     * Most messages a shard's loop holds at once: the running ones plus a few claimed ahead, so a handler finishing
     * finds the next message without a round trip to Redis.
     */
    int prefetchLimit() {
        return concurrency + Math.min(batchSize, Math.max(concurrency, 8));
    }

    /** How often the leases of held messages are extended: three renewals per lease, at most 20 a second. */
    long renewalPeriodMillis() {
        return Math.max(50, leaseMillis / 3);
    }
}
