package io.quarkiverse.pacer.deployment;

import io.quarkiverse.pacer.runtime.PacerStartupSummary;
import io.quarkiverse.pacer.runtime.config.PacerBuildTimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfigValidation;
import io.quarkiverse.pacer.runtime.health.PacerRedisReadinessCheck;
import io.quarkiverse.pacer.runtime.redis.ClusterCoverageCheck;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.PacerRedisOptions;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourcePatternsBuildItem;
import io.quarkus.redis.deployment.client.RequestedRedisClientBuildItem;
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
                .addBeanClasses(PacerRedis.class, PacerRedisOptions.class, PacerConfigValidation.class,
                        ClusterCoverageCheck.class)
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
}
