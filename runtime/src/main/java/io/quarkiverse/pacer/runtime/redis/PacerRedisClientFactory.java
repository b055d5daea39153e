package io.quarkiverse.pacer.runtime.redis;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkus.arc.Arc;
import io.quarkus.proxy.ProxyConfigurationRegistry;
import io.quarkus.redis.runtime.client.VertxRedisClientFactory;
import io.quarkus.redis.runtime.client.config.RedisClientConfig;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.smallrye.config.SmallRyeConfig;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * Builds Pacer's own Vert.x Redis client from the configuration of the Quarkus Redis client it serves (hosts, client
 * type, password, TLS, proxy, customizers: the same {@code quarkus.redis[."name"].*} settings).
 * <p>
 * Why its own: a connection taken from the application's pool may already live on one of the application's event
 * loops, where HTTP work delays reading Redis's answers by hundreds of milliseconds under load; a client of its own
 * opens its connections on Pacer's event-loop threads, and takes nothing from the application's pool.
 */
final class PacerRedisClientFactory {

    private static final Logger LOG = Logger.getLogger(PacerRedisClientFactory.class);

    private PacerRedisClientFactory() {
    }

    /** Pacer's own client, or {@code null} when it cannot be built here (then the shared client is used). */
    static Redis create(Vertx vertx, String clientName) {
        String name = clientName == null ? RedisConfig.DEFAULT_CLIENT_NAME : clientName;
        try {
            RedisConfig config = ConfigProvider.getConfig().unwrap(SmallRyeConfig.class)
                    .getConfigMapping(RedisConfig.class);
            RedisClientConfig client = config.clients().get(name);
            if (client == null) {
                LOG.debugf("No configuration of Redis client %s: Pacer shares the application's client", name);
                return null;
            }
            return VertxRedisClientFactory.create(name, vertx, client,
                    Arc.container().instance(TlsConfigurationRegistry.class).get(),
                    Arc.container().instance(ProxyConfigurationRegistry.class).get());
        } catch (RuntimeException | LinkageError e) {
            LOG.debugf(e, "Pacer cannot build a Redis client of its own for %s: it shares the application's client", name);
            return null;
        }
    }
}
