package io.quarkiverse.pacer.benchmarks.throttle;

import java.util.List;
import java.util.concurrent.ExecutionException;

import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;

/**
 * The physical limit of a distributed token bucket on a Redis Cluster from Java: the minimal token-bucket script (as
 * {@link MinimalLuaLettuceBaseline}) sent with {@code EVALSHA} through Lettuce's cluster client, which routes each
 * call to its slot's master over one multiplexed connection per node; asynchronous commands, each caller awaiting its
 * own future.
 */
public final class MinimalLuaLettuceClusterBaseline extends MinimalTokenBucketPeer {

    private final RedisClusterClient client;
    private final StatefulRedisClusterConnection<String, String> connection;
    private final RedisAdvancedClusterAsyncCommands<String, String> commands;
    private final String sha;

    public MinimalLuaLettuceClusterBaseline(List<String> nodeUris) {
        this.client = RedisClusterClient.create(nodeUris.stream().map(RedisURI::create).toList());
        this.connection = client.connect();
        this.commands = connection.async();
        // SCRIPT LOAD goes to every master with Lettuce's cluster client.
        this.sha = connection.sync().scriptLoad(script());
    }

    @Override
    public String name() {
        return "minimal Lua, Lettuce cluster client (async)";
    }

    @Override
    public boolean tryAcquire(int keyIndex) {
        try {
            Long taken = commands.<Long> evalsha(sha, ScriptOutputType.INTEGER, keys(keyIndex),
                    capacity(), refillPerSecond()).get();
            return taken != null && taken == 1L;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
