package io.quarkiverse.pacer.runtime.config;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Pacer configuration fixed at build time.
 */
@ConfigMapping(prefix = "quarkus.pacer")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface PacerBuildTimeConfig {

    /**
     * The name of the Quarkus Redis client Pacer uses (a client configured with {@code quarkus.redis."name".*}).
     * When absent, Pacer uses the default Redis client ({@code quarkus.redis.*}).
     */
    Optional<String> redisClientName();

    /**
     * Health checks.
     */
    Health health();

    /**
     * Delay queues ({@code @Delayed}), settings fixed at build time.
     */
    DelayedBuildTimeConfig delayed();

    /**
     * OpenTelemetry tracing of delay queues and throttling decisions.
     */
    Tracing tracing();

    interface Tracing {

        /**
         * Whether Pacer traces when {@code quarkus-opentelemetry} is present with tracing enabled
         * ({@code quarkus.otel.traces.enabled}): schedule calls get a PRODUCER span whose context is stored with the
         * message, each delivery attempt a CONSUMER span in that trace, and throttling decisions an event on the current
         * span. Without OpenTelemetry, or set to {@code false}, nothing is traced and nothing is stored.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * Whether the {@code pacer.throttle} span events carry the throttling key ({@code pacer.throttle.key}). Off by
         * default: keys are often user ids or client addresses, personal data that traces should not collect.
         */
        @WithDefault("false")
        boolean includeThrottleKey();
    }

    interface Health {

        /**
         * Whether Pacer adds a readiness check (the Redis it uses answers {@code PING}) when SmallRye Health is present.
         */
        @WithDefault("true")
        boolean enabled();
    }

    /**
     * Dev Services: a local {@code redis-server} for dev and test mode when no container runtime is available.
     */
    DevServices devservices();

    interface DevServices {

        /**
         * Whether Pacer starts a local {@code redis-server} process in dev and test mode when the Redis client Pacer
         * uses has no {@code hosts} configured and no container runtime (Docker, Podman) is available for the Redis
         * client's own Dev Services. Set to {@code false} to turn the fallback off.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * Which Redis server Pacer's Dev Services run:
         * <ul>
         * <li>{@code auto}: the Redis client's container when a container runtime works, else a {@code redis-server}
         * on the {@code PATH}, else the {@code redis-server} embedded in Pacer's build-time dependencies (Redis 6.2);</li>
         * <li>{@code path}: the {@code redis-server} on the {@code PATH}, never a container;</li>
         * <li>{@code embedded}: the embedded {@code redis-server}, never a container;</li>
         * <li>anything else: that executable, a file path or a name looked up on the {@code PATH}.</li>
         * </ul>
         * A forced choice does not stop the Redis client's own Dev Services: where a container runtime works, also set
         * {@code quarkus.redis.devservices.enabled=false}.
         */
        @WithDefault("auto")
        String redisServer();

        /**
         * The Redis topology Pacer starts: {@code standalone} (one {@code redis-server}), {@code cluster} (a Redis
         * Cluster of three masters; sets {@code quarkus.redis.client-type=cluster}) or {@code sentinel} (a primary, two
         * replicas and three sentinels monitoring it as {@code pacer}; sets {@code client-type=sentinel} and
         * {@code master-name}). {@code cluster} and {@code sentinel} always run local {@code redis-server} processes,
         * even when a container runtime is available, to try and test an application on these topologies.
         */
        @WithDefault("standalone")
        Topology topology();

        /**
         * With {@code topology=cluster}: how many replicas each of the three masters gets ({@code CLUSTER REPLICATE}),
         * so that a master that dies is failed over to its replica. {@code 0} (the default) starts three masters only;
         * {@code 1} starts three masters and three replicas, to try (and test) a failover. Every node runs with
         * {@code cluster-node-timeout 2000} and {@code cluster-require-full-coverage no}, so the slots of surviving
         * masters keep answering while a master is down.
         */
        @WithDefault("0")
        int clusterReplicas();
    }

    enum Topology {
        STANDALONE,
        CLUSTER,
        SENTINEL
    }
}
