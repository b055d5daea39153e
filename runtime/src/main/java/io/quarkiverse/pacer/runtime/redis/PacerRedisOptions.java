package io.quarkiverse.pacer.runtime.redis;

import java.util.function.Supplier;

import jakarta.inject.Singleton;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.redis.client.RedisOptions;

/**
 * Keeps Pacer's own Redis connections out of Quarkus's Redis client instrumentation
 * ({@code quarkus.otel.instrument.vertx-redis-client}): with OpenTelemetry, every command Pacer sends would otherwise be
 * a span of its own, one per throttling decision on the hot path and a root span per claim poll, lease renewal and
 * override refresh of every instance. Pacer's own spans and events say what happened (see observability.adoc). Only
 * the clients Pacer builds are changed, while it builds them; the application's clients keep their settings.
 */
@Singleton
public class PacerRedisOptions implements RedisOptionsCustomizer {

    /** Set while {@link PacerRedisClientFactory} builds a client of Pacer's (Quarkus calls customizers right then). */
    private static final ThreadLocal<Boolean> BUILDING = new ThreadLocal<>();

    /** Builds one of Pacer's clients: customizers called meanwhile on this thread are customizing it. */
    static <T> T building(Supplier<T> build) {
        BUILDING.set(Boolean.TRUE);
        try {
            return build.get();
        } finally {
            BUILDING.remove();
        }
    }

    @Override
    public void customize(String clientName, RedisOptions options) {
        if (BUILDING.get() != null) {
            options.setTracingPolicy(TracingPolicy.IGNORE);
        }
    }
}
