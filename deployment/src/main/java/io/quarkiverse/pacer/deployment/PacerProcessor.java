package io.quarkiverse.pacer.deployment;

import io.quarkiverse.pacer.runtime.PacerStartupSummary;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfigValidation;
import io.quarkiverse.pacer.runtime.health.PacerRedisReadinessCheck;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.PacerRedisOptions;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageProxyDefinitionBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourcePatternsBuildItem;
import io.quarkus.deployment.logging.LogCleanupFilterBuildItem;
import io.quarkus.redis.deployment.client.RequestedRedisClientBuildItem;
import io.quarkus.redis.runtime.client.config.RedisClientConfig;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;

/**
 * The plumbing both capabilities share: the feature, the Redis client Pacer uses and the Lua scripts.
 */
public class PacerProcessor {

    public static final String FEATURE = "pacer";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep
    RequestedRedisClientBuildItem requestRedisClient(PacerBuildTimeConfig config) {
        // Pacer looks its client up programmatically, so the Redis extension must be told to create it.
        return new RequestedRedisClientBuildItem(config.redisClientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME));
    }

    @BuildStep
    AdditionalBeanBuildItem registerRedisAccess() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(PacerRedis.class, PacerRedisOptions.class, PacerConfigValidation.class)
                .setUnremovable().build();
    }

    @BuildStep
    AdditionalBeanBuildItem registerStartupSummary() {
        return AdditionalBeanBuildItem.unremovableOf(PacerStartupSummary.class);
    }

    @BuildStep
    HealthBuildItem addReadinessCheck(PacerBuildTimeConfig config) {
        // Ignored unless SmallRye Health is present.
        return new HealthBuildItem(PacerRedisReadinessCheck.class.getName(), config.health().enabled());
    }

    @BuildStep
    NativeImageResourcePatternsBuildItem registerScriptsForNativeImage() {
        return NativeImageResourcePatternsBuildItem.builder()
                .includeGlob(LuaScript.RESOURCE_DIRECTORY + "*.lua")
                .build();
    }

    @BuildStep
    NativeImageProxyDefinitionBuildItem registerClusterNodeConfigProxy() {
        // On Redis Cluster, Pacer builds each master's client from the cluster client's configuration seen through a
        // proxy that names that master as the only, standalone host.
        return new NativeImageProxyDefinitionBuildItem(RedisClientConfig.class.getName());
    }

    /**
     * Several Vert.x Redis clients share the pool name of one Quarkus Redis client: Quarkus creates each client twice
     * when both its client and data source steps initialise it (the second copy is dropped unused), and Pacer's own
     * client is built from the same configuration. Micrometer then warns on every start that the pool gauge exists;
     * the first registration's metrics stay right, so the warning needs no action.
     */
    @BuildStep
    LogCleanupFilterBuildItem quietDuplicatePoolGauge(PacerBuildTimeConfig pacerConfig) {
        String clientName = pacerConfig.redisClientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME);
        return new LogCleanupFilterBuildItem("io.micrometer.core.instrument.MeterRegistry",
                "This Gauge has been already registered (MeterId{name='redis.pool.queue.size', tags=[tag(pool.name="
                        + clientName + "),tag(pool.type=redis)]})");
    }
}
