package io.quarkiverse.pacer.deployment.devservices;

import java.nio.file.Path;
import java.util.Map;

import io.quarkiverse.pacer.deployment.PacerProcessor;
import io.quarkiverse.pacer.deployment.devservices.PacerDevServicesConfig.Topology;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.redis.runtime.client.config.RedisConfig;

/**
 * The Dev Services of the distributed topologies ({@code quarkus.pacer.devservices.topology=cluster|sentinel}): a
 * {@link LocalRedisCluster} or {@link LocalRedisSentinel}, and the Redis client configuration that points at it.
 */
final class LocalRedisTopologies {

    /** Identifies the service for reuse across dev-mode restarts: same topology, executable and client. */
    record LocalRedisTopologyConfig(String clientName, String redisServer, Topology topology, int clusterReplicas) {
    }

    private LocalRedisTopologies() {
    }

    static DevServicesResultBuildItem devService(Topology topology, int clusterReplicas, String clientName,
            Path executable) {
        String hosts = RedisConfig.getPropertyName(clientName, RedisConfig.HOSTS);
        String clientType = RedisConfig.getPropertyName(clientName, "client-type");
        LocalRedisTopologyConfig config = new LocalRedisTopologyConfig(clientName, executable.toString(), topology,
                clusterReplicas);
        if (topology == Topology.CLUSTER) {
            return DevServicesResultBuildItem.<LocalRedisCluster> owned()
                    .feature(PacerProcessor.FEATURE)
                    .serviceName(clientName)
                    .description("Local Redis Cluster (3 masters, " + clusterReplicas + " replica(s) each) for Redis client "
                            + clientName)
                    .serviceConfig(config)
                    .startable(() -> new LocalRedisCluster(executable, clusterReplicas))
                    .configProvider(Map.of(
                            hosts, LocalRedisCluster::hosts,
                            clientType, cluster -> "cluster"))
                    .build();
        }
        return DevServicesResultBuildItem.<LocalRedisSentinel> owned()
                .feature(PacerProcessor.FEATURE)
                .serviceName(clientName)
                .description("Local Redis primary, replicas and sentinels for Redis client " + clientName)
                .serviceConfig(config)
                .startable(() -> new LocalRedisSentinel(executable))
                .configProvider(Map.of(
                        hosts, LocalRedisSentinel::hosts,
                        clientType, sentinel -> "sentinel",
                        RedisConfig.getPropertyName(clientName, "master-name"), sentinel -> LocalRedisSentinel.MASTER_NAME))
                .build();
    }
}
