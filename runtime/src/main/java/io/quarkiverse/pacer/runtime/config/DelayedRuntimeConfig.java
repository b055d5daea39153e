package io.quarkiverse.pacer.runtime.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

/**
 * Delay queues ({@code @Delayed}): how consumers poll and claim, and per-queue overrides of the annotation.
 */
@ConfigGroup
public interface DelayedRuntimeConfig {

    /**
     * Whether this instance delivers delayed messages. With {@code false} no {@code @Delayed} method is invoked and
     * Redis is never polled for due messages on this instance, as with {@code consumer.enabled=false};
     * {@code DelayedQueue} and {@code ReactiveDelayedQueue} keep storing, cancelling and inspecting messages, which
     * instances with delivery enabled deliver.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * The safety poll: every consumer claims due messages at least this often, even if it missed a wake-up. Consumers
     * normally wake at the earliest due time and on producers' notifications, so this bounds lateness only when those
     * fail.
     */
    @WithDefault("5s")
    Duration pollInterval();

    /**
     * The most messages one claim takes from Redis in a single script call. Bounds the work Redis does per call, and
     * how many messages one instance holds ahead of its handlers.
     */
    @WithDefault("100")
    int batchSize();

    /**
     * How many shards each queue is split into. Every shard has its own keys with their own hash tag
     * ({@code {<queue>#<shard>}}), so on a Redis Cluster one queue spreads over several nodes; every consuming instance
     * consumes every shard. A message lives on the shard chosen by its id. All instances must use the same value, and
     * changing it strands the messages already stored: drain the queues first.
     */
    @WithDefault("1")
    int shards();

    /**
     * What {@code schedule} waits for before it returns. {@code primary}: the Redis primary stored the message; Redis
     * replicates asynchronously, so a failover right after can lose it. {@code replicas}: at least one replica
     * acknowledged the write too ({@code WAIT 1}, on Redis Cluster sent to the master that stored it), so a failover to
     * that replica keeps it; {@code schedule} fails when no replica acknowledges within {@code durability-timeout} or
     * the master is lost before it answers: the message is then stored but not confirmed, and scheduling it again
     * with the same id is safe. Concurrent writes to one master share their {@code WAIT}. A master known to have no
     * connected replica (on Redis Cluster, a replica promoted after a failover, until a node replicates it) refuses
     * the write at once, before it is stored, with {@code DurabilityUnavailableException}; other shards are not
     * affected, and the master takes durable writes again once a replica is connected. Applies to {@code schedule},
     * {@code scheduleIfAbsent} and {@code scheduleAll}.
     */
    @WithDefault("primary")
    Durability durability();

    /**
     * With {@code durability=replicas}: how long {@code schedule} waits for a replica's acknowledgement before it
     * fails.
     */
    @WithDefault("1s")
    Duration durabilityTimeout();

    /**
     * How long shutdown waits for running handlers to finish before leaving their messages to lease expiry, and for
     * schedule-on-commit operations still waiting for Redis before dropping them (each dropped one is logged with its
     * queue and id).
     */
    @WithDefault("10s")
    Duration shutdownTimeout();

    /**
     * How long a producer call ({@code schedule*}, {@code cancel}, {@code deliverNow} and the dead-letter and size
     * calls of {@code DelayedQueue} and {@code ReactiveDelayedQueue}) waits for an unavailable Redis: while Redis is
     * unreachable or does not answer (a restart, a Sentinel or Cluster failover), the call is retried with a short
     * backoff, without blocking a thread, and fails only when Redis is still unavailable after this time. {@code 0}
     * fails at the first unavailability. Other errors fail at once; throttling decisions are not affected.
     */
    @WithDefault("10s")
    Duration producerTimeout();

    /**
     * Schedule on commit (with {@code quarkus-narayana-jta}).
     */
    AfterCommit afterCommit();

    /**
     * Consumers of this instance.
     */
    Consumer consumer();

    /**
     * Per-queue overrides of the {@code @Delayed} annotation members, keyed by queue name.
     */
    @WithParentName
    @ConfigDocMapKey("queue")
    Map<String, QueueConfig> queues();

    enum Durability {
        /** The primary stored the write. */
        PRIMARY,
        /** The primary and at least one replica stored the write. */
        REPLICAS
    }

    interface AfterCommit {

        /**
         * How long the operations of a committed transaction ({@code schedule}, {@code cancel} inside
         * {@code @Transactional}) keep being retried, with backoff and in call order, while Redis is unavailable (a
         * restart, a failover: Sentinel takes seconds, a Cluster with default settings 15 to 20 s), counted from the
         * commit. An operation still failing after this time is logged at ERROR with its queue and id, and lost.
         */
        @WithDefault("60s")
        Duration retryFor();
    }

    interface Consumer {

        /**
         * Whether this instance consumes delay queues. Set to {@code false} for producer-only instances: they can
         * schedule, cancel and inspect messages, and never claim any.
         */
        @WithDefault("true")
        boolean enabled();
    }

    interface QueueConfig {

        /**
         * Overrides {@code @Delayed(concurrency)}: messages of this queue handled at the same time per instance.
         */
        OptionalInt concurrency();

        /**
         * Overrides {@code @Delayed(maxAttempts)}: handling attempts before a message is dead-lettered.
         */
        OptionalInt maxAttempts();

        /**
         * Overrides {@code @Delayed(backoff)}: the delay before the first retry, doubled for each further retry.
         */
        Optional<Duration> backoff();

        /**
         * Overrides {@code @Delayed(lease)}: how long a claimed message stays invisible to other consumers; at least
         * {@code 100ms}.
         */
        Optional<Duration> lease();

        /**
         * Overrides {@code quarkus.pacer.delayed.durability} for this queue: e.g. {@code replicas} for the one queue
         * whose messages must survive a failover, {@code primary} elsewhere.
         */
        Optional<Durability> durability();

        /**
         * Whether this instance consumes the queue. Producers can still schedule on a disabled queue.
         */
        @WithDefault("true")
        boolean enabled();
    }
}
