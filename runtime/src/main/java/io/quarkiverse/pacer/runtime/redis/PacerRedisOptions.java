package io.quarkiverse.pacer.runtime.redis;

import java.util.List;
import java.util.function.Supplier;

import jakarta.inject.Singleton;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;

/**
 * Adjusts the Redis clients Pacer builds for itself, and only those (while it builds them; the application's clients
 * keep their settings):
 * <ul>
 * <li>their pool and metrics are named {@code pacer-<client>} ({@code pacer-<client>@<host:port>} for one node of a
 * Redis Cluster), so their pool gauges never collide with the application client's;</li>
 * <li>their pool holds at least the connections Pacer opens with them (its pipelined connections, the durable one and
 * its pub/sub connections), so none of them waits for another to be closed;</li>
 * <li>a client for one node of a Redis Cluster is a standalone client of that node;</li>
 * <li>they stay out of Quarkus's Redis client instrumentation ({@code quarkus.otel.instrument.vertx-redis-client}):
 * with OpenTelemetry, every command Pacer sends would otherwise be a span of its own, one per throttling decision on the
 * hot path and a root span per claim poll, lease renewal and override refresh of every instance. Pacer's own spans and
 * events say what happened (see observability.adoc).</li>
 * </ul>
 */
@Singleton
public class PacerRedisOptions implements RedisOptionsCustomizer {

    /** The prefix of the pool and metrics names of Pacer's clients. */
    static final String NAME_PREFIX = "pacer-";

    /**
     * The client being built on this thread, set while {@link PacerRedisClientFactory} builds a client of Pacer's
     * (Quarkus calls customizers right then).
     */
    private static final ThreadLocal<ClientBuild> BUILDING = new ThreadLocal<>();

    /**
     * What one of Pacer's clients needs.
     *
     * @param poolSize the connections Pacer opens with it at most
     * @param poolName the name of its pool and metrics
     * @param node the {@code redis://} address of the only node it connects to, or {@code null} to keep the
     *        configured hosts and client type
     */
    record ClientBuild(int poolSize, String poolName, String node) {
    }

    /** Builds one of Pacer's clients: customizers called meanwhile on this thread are customizing it. */
    static <T> T building(ClientBuild client, Supplier<T> build) {
        BUILDING.set(client);
        try {
            return build.get();
        } finally {
            BUILDING.remove();
        }
    }

    @Override
    public void customize(String clientName, RedisOptions options) {
        ClientBuild client = BUILDING.get();
        if (client == null) {
            return;
        }
        options.setTracingPolicy(TracingPolicy.IGNORE);
        if (options.getMaxPoolSize() < client.poolSize()) {
            options.setMaxPoolSize(client.poolSize());
        }
        options.setPoolName(client.poolName());
        // Quarkus's Vert.x metrics read "redis|<name>" as a Redis client named <name>
        options.getNetClientOptions().setMetricsName("redis|" + client.poolName());
        if (client.node() != null) {
            options.setType(RedisClientType.STANDALONE);
            options.setEndpoints(List.of(client.node()));
        }
    }
}
