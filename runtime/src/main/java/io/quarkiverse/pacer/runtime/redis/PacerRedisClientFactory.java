package io.quarkiverse.pacer.runtime.redis;

import java.net.URI;
import java.net.URISyntaxException;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.redis.PacerRedisOptions.ClientBuild;
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
 * <p>
 * Risk: {@link VertxRedisClientFactory} is an internal class of {@code quarkus-redis-client} (package
 * {@code io.quarkus.redis.runtime.client}), not a supported API, and may change in any Quarkus release. It is the only
 * way to build a client from a {@code quarkus.redis.*} configuration exactly as Quarkus does (TLS registry, proxy, hosts
 * providers, customizers), so this class is the only one in Pacer that calls it, and
 * {@code VertxRedisClientFactoryContractTest} fails when its signature or its call to the customizers changes. If it
 * breaks, Pacer falls back to the application's client and logs a warning saying why.
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
            LOG.warnf("Pacer cannot read the configuration of Redis client %s, so it shares the application's client: %s",
                    name, e);
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
        return client == null ? null
                : create(vertx, clientName, client,
                        new ClientBuild(poolSize, PacerRedisOptions.NAME_PREFIX + name(clientName), null));
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
        return create(vertx, clientName, cluster,
                new ClientBuild(poolSize, PacerRedisOptions.NAME_PREFIX + name(clientName) + "@" + endpoint, node.toString()));
    }

    private static Redis create(Vertx vertx, String clientName, RedisClientConfig client, ClientBuild build) {
        try {
            // PacerRedisOptions names its pool, sizes it for Pacer's connections, keeps its commands out of the Redis
            // client spans and, for a Cluster node, makes it a standalone client of that node.
            return PacerRedisOptions.building(build,
                    () -> VertxRedisClientFactory.create(name(clientName), vertx, client,
                            Arc.container().instance(TlsConfigurationRegistry.class).get(),
                            Arc.container().instance(ProxyConfigurationRegistry.class).get()));
        } catch (RuntimeException | LinkageError e) {
            LOG.warnf("Pacer cannot build a Redis client of its own for %s, so it shares the application's client "
                    + "(its pool and event loops): %s", name(clientName), e);
            return null;
        }
    }

    private static String name(String clientName) {
        return clientName == null ? RedisConfig.DEFAULT_CLIENT_NAME : clientName;
    }
}
