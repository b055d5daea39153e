package io.quarkiverse.pacer.deployment.devservices;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Dev Services: a local Redis for dev and test mode when the Redis client's own Dev Services cannot start a container.
 * Read at build time only, so a production build records none of it.
 */
@ConfigMapping(prefix = "quarkus.pacer.devservices")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface PacerDevServicesConfig {

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
     * on the {@code PATH}, else the embedded {@code redis-server} (Redis 6.2) when the application opted in with the
     * {@code io.quarkiverse.pacer:quarkus-pacer-embedded-redis} dependency;</li>
     * <li>{@code path}: the {@code redis-server} on the {@code PATH}, never a container;</li>
     * <li>{@code embedded}: the embedded {@code redis-server} ({@code quarkus-pacer-embedded-redis}), never a
     * container;</li>
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

    /** The Redis topologies Pacer's Dev Services can start. */
    enum Topology {
        STANDALONE,
        CLUSTER,
        SENTINEL
    }
}
