package io.quarkiverse.pacer.runtime.config;

import java.util.Map;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

/**
 * Delay queues: integrations decided at build time.
 */
@ConfigGroup
public interface DelayedBuildTimeConfig {

    /**
     * Whether {@code schedule}, {@code scheduleIfAbsent} and {@code cancel} called inside an active JTA transaction
     * take effect only when it commits (and never after a rollback). Applies when {@code quarkus-narayana-jta} is in
     * the application; set to {@code false} to have them act at once, as outside a transaction.
     */
    @WithDefault("true")
    boolean transactional();

    /**
     * Per-queue build-time settings, keyed by queue name.
     */
    @WithParentName
    @ConfigDocMapKey("queue")
    Map<String, QueueBuildTimeConfig> queues();

    interface QueueBuildTimeConfig {

        /**
         * A Quarkus Messaging channel that receives the queue's due messages instead of a {@code @Delayed} method
         * (requires {@code quarkus-messaging}; configure the channel's connector with
         * {@code mp.messaging.outgoing."<channel>".*}). A message is acknowledged in Redis when the channel
         * acknowledges it; a negative acknowledgement retries it with backoff, as a failing handler would.
         */
        Optional<String> forwardTo();
    }
}
