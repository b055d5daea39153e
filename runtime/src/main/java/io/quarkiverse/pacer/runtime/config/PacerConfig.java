package io.quarkiverse.pacer.runtime.config;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Pacer runtime configuration.
 */
@ConfigMapping(prefix = "quarkus.pacer")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface PacerConfig {

    /**
     * Prefix of every Redis key Pacer writes, so several applications can share one Redis.
     */
    @WithDefault("pacer")
    String keyPrefix();

    /**
     * Pacer's own connections to Redis.
     */
    RedisTransportConfig redis();

    /**
     * Rate limiting ({@code @Throttled}).
     */
    ThrottleRuntimeConfig throttle();

    /**
     * Delay queues: {@code quarkus.pacer.delayed.*}.
     */
    DelayedRuntimeConfig delayed();
}
