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

    /**
     * The {@code PACER} implementation of Quarkus's scheduler.
     */
    Scheduler scheduler();

    interface Scheduler {

        /**
         * Whether {@code PACER} is the default implementation of Quarkus's scheduler: every {@code @Scheduled} method
         * without {@code executeWith}, and every {@code Scheduler.newJob(...)} job without {@code setExecuteWith}, then
         * runs each tick once across the instances that share the Redis, instead of on every instance. A method or job
         * keeps Quarkus's own scheduler with {@code executeWith = Scheduled.SIMPLE}; Pacer's own jobs always do. Needs
         * {@code quarkus.scheduler.use-composite-scheduler=true}: without it the build fails.
         */
        @WithDefault("false")
        boolean defaultImplementation();
    }

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
}
