package io.quarkiverse.pacer.runtime.redis;

import java.util.function.Supplier;

import jakarta.inject.Singleton;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.redis.client.RedisOptions;

/**
 * Adjusts the Redis clients Pacer builds for itself, and only those (while it builds them; the application's clients
 * keep their settings):
 * <ul>
 * <li>their pool holds at least the connections Pacer opens with them (its pipelined connections, the durable one and
 * its pub/sub connections), so none of them waits for another to be closed;</li>
 * <li>they stay out of Quarkus's Redis client instrumentation ({@code quarkus.otel.instrument.vertx-redis-client}):
 * with OpenTelemetry, every command Pacer sends would otherwise be a span of its own, one per throttling decision on the
 * hot path and a root span per claim poll, lease renewal and override refresh of every instance. Pacer's own spans and
 * events say what happened (see observability.adoc).</li>
 * </ul>
 */
@Singleton
public class PacerRedisOptions implements RedisOptionsCustomizer {

    /**
     * The pool size the client being built on this thread needs, set while {@link PacerRedisClientFactory} builds a
     * client of Pacer's (Quarkus calls customizers right then).
     */
    private static final ThreadLocal<Integer> BUILDING = new ThreadLocal<>();

    /**
     * Builds one of Pacer's clients: customizers called meanwhile on this thread are customizing it.
     *
     * @param poolSize the connections Pacer opens with it at most
     */
    static <T> T building(int poolSize, Supplier<T> build) {
        BUILDING.set(poolSize);
        try {
            return build.get();
        } finally {
            BUILDING.remove();
        }
    }

    @Override
    public void customize(String clientName, RedisOptions options) {
        Integer poolSize = BUILDING.get();
        if (poolSize != null) {
            options.setTracingPolicy(TracingPolicy.IGNORE);
            if (options.getMaxPoolSize() < poolSize) {
                options.setMaxPoolSize(poolSize);
            }
        }
    }
}
