package io.quarkiverse.pacer.deployment;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig.Topology;
import io.quarkus.deployment.IsDevServicesSupportedByLaunchMode;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.redis.deployment.client.RedisBuildTimeConfig;
import io.quarkus.redis.deployment.client.RedisClientBuildTimeConfig;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.runtime.configuration.ConfigUtils;

/**
 * Redis for dev and test mode on machines without a container runtime: when the Redis client Pacer uses has no
 * {@code hosts} and the Redis client's own Dev Services cannot start a container, Pacer starts a local
 * {@code redis-server} and points the client at it.
 */
@BuildSteps(onlyIf = { IsDevServicesSupportedByLaunchMode.class, DevServicesConfig.Enabled.class })
class PacerDevServicesProcessor {

    private static final Logger LOG = Logger.getLogger(PacerDevServicesProcessor.class);

    /** Identifies our service for reuse across dev-mode restarts: same executable and client, same server. */
    record LocalRedisServiceConfig(String clientName, String redisServer) {
    }

    @BuildStep
    void startLocalRedisServer(PacerBuildTimeConfig pacerConfig,
            RedisBuildTimeConfig redisConfig,
            DockerStatusBuildItem dockerStatus,
            BuildProducer<DevServicesResultBuildItem> devServices) {
        String clientName = pacerConfig.redisClientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME);
        String hostsProperty = RedisConfig.getPropertyName(clientName, RedisConfig.HOSTS);

        if (!pacerConfig.devservices().enabled()) {
            LOG.debug("Pacer Dev Services are disabled by quarkus.pacer.devservices.enabled=false");
            return;
        }
        if (ConfigUtils.isPropertyNonEmpty(hostsProperty)
                || ConfigUtils.isPropertyNonEmpty(RedisConfig.getPropertyName(clientName, RedisConfig.HOSTS_PROVIDER_NAME))) {
            LOG.debugf("Pacer Dev Services not needed: %s is configured", hostsProperty);
            return;
        }
        RedisClientBuildTimeConfig clientConfig = redisConfig.clients().get(clientName);
        if (clientConfig != null && !clientConfig.devservices().enabled()) {
            LOG.debugf("Pacer Dev Services not started: Dev Services for Redis client %s are disabled", clientName);
            return;
        }
        Topology topology = pacerConfig.devservices().topology();
        if (topology == Topology.STANDALONE && dockerStatus.isContainerRuntimeAvailable()) {
            // The Redis client's own Dev Services start a container; nothing to do.
            return;
        }

        String command = pacerConfig.devservices().redisServer();
        Optional<Path> executable = LocalRedisServer.locate(command);
        if (executable.isEmpty()) {
            throw new IllegalStateException(String.format(
                    "Pacer needs a Redis server in dev and test mode, but none is available for Redis client %s: "
                            + "%s is not set, no container runtime (Docker or Podman) is running, and '%s' was not found "
                            + "on the PATH. Do one of: install redis-server (e.g. 'apt-get install redis-server' or "
                            + "'brew install redis'); set quarkus.pacer.devservices.redis-server to its path; "
                            + "set %s to a Redis you run; or start Docker.",
                    clientName, hostsProperty, command, hostsProperty));
        }

        if (topology != Topology.STANDALONE) {
            devServices.produce(LocalRedisTopologies.devService(topology, clientName, executable.get()));
            return;
        }
        devServices.produce(DevServicesResultBuildItem.<LocalRedisServer> owned()
                .feature(PacerProcessor.FEATURE)
                .serviceName(clientName)
                .description("Local redis-server for Redis client " + clientName)
                .serviceConfig(new LocalRedisServiceConfig(clientName, executable.get().toString()))
                .startable(() -> new LocalRedisServer(executable.get()))
                .configProvider(Map.of(hostsProperty, server -> "redis://" + server.getConnectionInfo()))
                .build());
    }
}
