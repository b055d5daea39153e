package io.quarkiverse.pacer.runtime.delay;

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
 */
public record ConsumerSettings(DelayedConsumerDefinition definition, boolean enabled, int concurrency, int maxAttempts,
        long backoffMillis, long leaseMillis) {

    public String queue() {
        return definition.getQueue();
    }
}
