package io.quarkiverse.pacer.runtime.redis;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import java.util.Set;

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
import io.vertx.redis.client.RedisClientType;

/**
 * Builds Pacer's own Vert.x Redis clients from the configuration of the Quarkus Redis client it serves (hosts, client
 * type, password, TLS, proxy, customizers: the same {@code quarkus.redis[."name"].*} settings).
 * <p>
 * Why its own: a connection taken from the application's pool may already live on one of the application's event
 * loops, where HTTP work delays reading Redis's answers by hundreds of milliseconds under load; a client of its own
 * opens its connections on Pacer's event-loop threads, and takes nothing from the application's pool.
 * <p>
 * On Redis Cluster Pacer routes by slot itself: it builds one standalone client per master, from the same
 * configuration with that master as the only host (the seeds' scheme, user, password and query are kept), so one
 * unreachable master never stops the connections to the others.
 */
final class PacerRedisClientFactory {

    private static final Logger LOG = Logger.getLogger(PacerRedisClientFactory.class);

    private PacerRedisClientFactory() {
    }

    /** The configuration of the client, or {@code null} when it cannot be read here. */
    static RedisClientConfig config(String clientName) {
        String name = name(clientName);
        try {
            RedisConfig config = ConfigProvider.getConfig().unwrap(SmallRyeConfig.class)
                    .getConfigMapping(RedisConfig.class);
            RedisClientConfig client = config.clients().get(name);
            if (client == null) {
                LOG.debugf("No configuration of Redis client %s: Pacer shares the application's client", name);
            }
            return client;
        } catch (RuntimeException | LinkageError e) {
            LOG.debugf(e, "Pacer cannot read the configuration of Redis client %s: it shares the application's client",
                    name);
            return null;
        }
    }

    /**
     * Pacer's own client, or {@code null} when it cannot be built here (then the shared client is used).
     *
     * @param poolSize the connections Pacer opens with it at most (its pool holds at least as many)
     */
    static Redis create(Vertx vertx, String clientName, int poolSize) {
        RedisClientConfig client = config(clientName);
        return client == null ? null : create(vertx, clientName, client, poolSize);
    }

    /**
     * A standalone client for one node of a Redis Cluster.
     *
     * @param endpoint the node's {@code host:port}
     * @param poolSize the connections Pacer opens with it at most (its pool holds at least as many)
     */
    static Redis createForNode(Vertx vertx, String clientName, RedisClientConfig cluster, String endpoint,
            int poolSize) {
        URI seed = cluster.hosts().flatMap(hosts -> hosts.stream().findFirst()).orElse(null);
        URI node;
        try {
            node = new URI(seed == null ? "redis" : seed.getScheme(), seed == null ? null : seed.getUserInfo(),
                    SlotMap.hostOf(endpoint), SlotMap.portOf(endpoint), null, seed == null ? null : seed.getQuery(),
                    null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Redis Cluster node " + endpoint + " has no valid address", e);
        }
        return create(vertx, clientName, standalone(cluster, node), poolSize);
    }

    private static Redis create(Vertx vertx, String clientName, RedisClientConfig client, int poolSize) {
        try {
            // Its pool fits Pacer's connections, its commands make no Redis client spans (PacerRedisOptions).
            return PacerRedisOptions.building(poolSize, () -> VertxRedisClientFactory.create(name(clientName), vertx, client,
                    Arc.container().instance(TlsConfigurationRegistry.class).get(),
                    Arc.container().instance(ProxyConfigurationRegistry.class).get()));
        } catch (RuntimeException | LinkageError e) {
            LOG.debugf(e, "Pacer cannot build a Redis client of its own for %s: it shares the application's client",
                    name(clientName));
            return null;
        }
    }

    /** The same configuration, as a standalone client of {@code node}. */
    private static RedisClientConfig standalone(RedisClientConfig cluster, URI node) {
        return (RedisClientConfig) Proxy.newProxyInstance(RedisClientConfig.class.getClassLoader(),
                new Class<?>[] { RedisClientConfig.class }, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "hosts":
                            return Optional.of(Set.of(node));
                        case "hostsProviderName":
                            return Optional.empty();
                        case "clientType":
                            return RedisClientType.STANDALONE;
                        default:
                            try {
                                return method.invoke(cluster, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                    }
                });
    }

    private static String name(String clientName) {
        return clientName == null ? RedisConfig.DEFAULT_CLIENT_NAME : clientName;
    }
}
