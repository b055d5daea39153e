package io.quarkiverse.pacer.deployment.devservices;

import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.deployment.PacerProcessor;
import io.quarkiverse.pacer.deployment.devservices.PacerDevServicesConfig.Topology;
import io.quarkiverse.pacer.devservices.common.EmbeddedRedisBinary;
import io.quarkiverse.pacer.devservices.common.LocalRedisServerChoice;
import io.quarkiverse.pacer.devservices.common.RedisServerExecutable;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkus.deployment.IsDevServicesSupportedByLaunchMode;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.deployment.logging.LogCleanupFilterBuildItem;
import io.quarkus.redis.deployment.client.RedisBuildTimeConfig;
import io.quarkus.redis.deployment.client.RedisClientBuildTimeConfig;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.runtime.configuration.ConfigUtils;

/**
 * Redis for dev and test mode without configuration, in this order: the configured {@code hosts}; the Redis client's
 * own Dev Services when a container runtime works; a {@code redis-server} on the {@code PATH}; the embedded
 * {@code redis-server} when the application opted in with {@code quarkus-pacer-embedded-redis}; else the build fails
 * saying what to install or configure. {@code quarkus.pacer.devservices.redis-server} forces a choice.
 */
@BuildSteps(onlyIf = { IsDevServicesSupportedByLaunchMode.class, DevServicesConfig.Enabled.class })
class PacerDevServicesProcessor {

    private static final Logger LOG = Logger.getLogger(PacerDevServicesProcessor.class);
    /** Three masters with two replicas each are nine processes: enough to try any failover locally. */
    private static final int MAX_CLUSTER_REPLICAS = 2;

    /** Identifies our service for reuse across dev-mode restarts: same executable and client, same server. */
    record LocalRedisServiceConfig(String clientName, String redisServer) {
    }

    /**
     * Without a working container runtime, the Redis client's Dev Services warn "Please configure quarkus.redis.hosts
     * ... or get a working docker instance" for the client Pacer uses, while Pacer's own Dev Services start a local
     * {@code redis-server} for it and say so: that one warning only misleads, so it is logged at DEBUG. Warnings about
     * other Redis clients are left as they are.
     */
    @BuildStep
    LogCleanupFilterBuildItem quietContainerWarningForPacersClient(PacerBuildTimeConfig pacerConfig,
            PacerDevServicesConfig devServicesConfig) {
        String clientName = pacerConfig.redisClientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME);
        if (!devServicesConfig.enabled() || ConfigUtils.isPropertyNonEmpty(RedisConfig.getPropertyName(clientName,
                RedisConfig.HOSTS))) {
            return null;
        }
        String client = RedisConfig.isDefaultClient(clientName) ? "default redis client" : clientName;
        return new LogCleanupFilterBuildItem("io.quarkus.redis.deployment.client.DevServicesRedisProcessor", Level.FINE,
                "Please configure quarkus.redis.hosts for " + client + " or get a working docker instance");
    }

    @BuildStep
    void startLocalRedisServer(PacerBuildTimeConfig pacerConfig, PacerDevServicesConfig devServicesConfig,
            RedisBuildTimeConfig redisConfig,
            DockerStatusBuildItem dockerStatus,
            BuildProducer<DevServicesResultBuildItem> devServices) {
        String clientName = pacerConfig.redisClientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME);
        String hostsProperty = RedisConfig.getPropertyName(clientName, RedisConfig.HOSTS);

        if (!devServicesConfig.enabled()) {
            LOG.debug("Pacer Dev Services are disabled by quarkus.pacer.devservices.enabled=false");
            return;
        }
        if (ConfigUtils.isPropertyNonEmpty(hostsProperty)
                || ConfigUtils.isPropertyNonEmpty(RedisConfig.getPropertyName(clientName, RedisConfig.HOSTS_PROVIDER_NAME))) {
            LOG.debugf("Pacer Dev Services not needed: %s is configured", hostsProperty);
            return;
        }

        String setting = devServicesConfig.redisServer();
        Topology topology = devServicesConfig.topology();
        boolean containerRuntimeTraces = ContainerRuntimeTraces.found();
        String reason = hostsProperty + " is not set";
        if (topology != Topology.STANDALONE) {
            // the Redis client's container is a single server: a cluster or sentinel setup always runs locally
            reason += ", quarkus.pacer.devservices.topology=" + topology.name().toLowerCase(Locale.ROOT);
        }
        if (LocalRedisServerChoice.isAuto(setting)) {
            RedisClientBuildTimeConfig clientConfig = redisConfig.clients().get(clientName);
            if (clientConfig != null && !clientConfig.devservices().enabled()) {
                LOG.debugf("Pacer Dev Services not started: Dev Services for Redis client %s are disabled", clientName);
                return;
            }
            if (topology == Topology.STANDALONE) {
                if (!containerRuntimeTraces) {
                    reason += ", no container runtime (Docker, Podman) was found";
                } else if (dockerStatus.isContainerRuntimeAvailable()) {
                    LOG.debugf("Pacer Dev Services not needed: the Redis client's Dev Services start a container");
                    return;
                } else {
                    reason += ", the container runtime found does not work";
                }
            }
        } else {
            reason += ", quarkus.pacer.devservices.redis-server=" + setting;
        }

        RedisServerExecutable server;
        try {
            server = LocalRedisServerChoice.choose(setting);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(String.format(
                    "Pacer needs a Redis server in dev and test mode, but none is available for Redis client %s: %s, "
                            + "and %s. Do one of: install redis-server (e.g. 'apt-get install redis-server' or "
                            + "'brew install redis'); add the dependency %s with scope provided (a prebuilt Redis 6.2 "
                            + "for dev and test mode); set quarkus.pacer.devservices.redis-server to the path of a "
                            + "redis-server; set %s to a Redis you run; or start Docker or Podman.",
                    clientName, reason, e.getMessage(), EmbeddedRedisBinary.OPT_IN_ARTIFACT, hostsProperty), e);
        }
        if (server.olderThan(6, 2)) {
            LOG.warnf("Pacer supports Redis 6.2 and later, but %s is %s: install a newer redis-server, or add "
                    + "the dependency %s and set quarkus.pacer.devservices.redis-server=embedded", server.path(),
                    server.version(), EmbeddedRedisBinary.OPT_IN_ARTIFACT);
        }
        if (LocalRedisServerChoice.isAuto(setting) && LocalRedisServerChoice.isEmbedded(server)) {
            reason += " and no redis-server is on the PATH";
        }

        if (topology != Topology.STANDALONE) {
            int clusterReplicas = devServicesConfig.clusterReplicas();
            if (clusterReplicas < 0 || clusterReplicas > MAX_CLUSTER_REPLICAS) {
                throw new IllegalStateException("quarkus.pacer.devservices.cluster-replicas must be between 0 and "
                        + MAX_CLUSTER_REPLICAS + ", was " + clusterReplicas);
            }
            devServices.produce(LocalRedisTopologies.devService(topology, clusterReplicas, clientName, server.path()));
            return;
        }
        String because = reason;
        devServices.produce(DevServicesResultBuildItem.<LocalRedisServer> owned()
                .feature(PacerProcessor.FEATURE)
                .serviceName(clientName)
                .description("redis-server " + server.version() + " for Redis client " + clientName)
                .serviceConfig(new LocalRedisServiceConfig(clientName, server.path().toString()))
                .startable(() -> new LocalRedisServer(server, clientName, because))
                .configProvider(Map.of(hostsProperty, started -> "redis://" + started.getConnectionInfo()))
                .build());
    }
}
