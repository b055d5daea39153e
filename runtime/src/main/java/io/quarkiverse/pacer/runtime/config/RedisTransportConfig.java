package io.quarkiverse.pacer.runtime.config;

import java.time.Duration;

import io.smallrye.config.WithDefault;

/**
 * Pacer's own connections to Redis ({@code quarkus.pacer.redis.*}).
 * <p>
 * Pacer does not borrow a pooled connection per request: it holds a few long-lived connections of the configured Redis
 * client and pipelines many requests on each, so its throughput and correctness do not depend on the application's
 * {@code quarkus.redis.max-pool-size} and {@code max-pool-waiting}.
 */
public interface RedisTransportConfig {

    /**
     * How many long-lived connections Pacer holds (each taken once from the configured client's pool and kept); on
     * Redis Cluster, per master. One connection carries tens of thousands of requests per second; more help only when
     * one event-loop thread is the bottleneck. Delay-queue consumers hold one more connection, for wake-up
     * notifications.
     */
    @WithDefault("1")
    int connections();

    /**
     * Requests written to one connection and not yet answered, at most. Keep it below the Redis client's
     * {@code quarkus.redis.max-waiting-handlers} (2048 by default).
     */
    @WithDefault("1024")
    int maxInFlight();

    /**
     * Requests waiting for room in the pipeline of one connection, at most. Beyond that a request fails at once with
     * an error saying so (for a throttle decision: {@code on-redis-failure} applies); under any realistic load the
     * queue drains in milliseconds.
     */
    @WithDefault("100000")
    int maxQueued();

    /**
     * The time budget of Pacer's Redis calls other than throttle decisions (which use
     * {@code quarkus.pacer.throttle.timeout}): delay-queue operations, claims, acknowledgements. A call fails when
     * Redis stays silent for this long (or there is no connection), or after four budgets in all.
     */
    @WithDefault("5s")
    Duration timeout();

    /**
     * Whether a throttling decision requested on one of the application's event loops (a REST endpoint decided before
     * it runs, a {@code Uni} method called on an event loop) goes on a connection of Pacer's on that same event loop, so
     * it is written, read and answered on the caller's thread without handing it over to Pacer's threads and back. Such
     * a connection is opened when an event loop first asks for a decision: at most one per event loop of the
     * application ({@code quarkus.vertx.event-loops-pool-size}, by default twice the cores), besides
     * {@code connections}. Not on Redis Cluster. Turn it off to hold fewer connections to Redis.
     */
    @WithDefault("true")
    boolean eventLoopConnections();
}
