package io.quarkiverse.pacer.benchmarks.throttle;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The physical limit of a distributed token bucket from Java: the minimal token-bucket script
 * ({@code baseline/minimal-token-bucket.lua}: server {@code TIME}, one hash, {@code PEXPIRE}) sent with
 * {@code EVALSHA} over <em>one</em> multiplexed Lettuce connection shared by all callers, as Lettuce intends.
 */
public final class MinimalLuaLettuceBaseline extends MinimalTokenBucketPeer {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> commands;
    private final String sha;

    public MinimalLuaLettuceBaseline(String redisUri) {
        this.client = RedisClient.create(redisUri);
        this.connection = client.connect();
        this.commands = connection.sync();
        this.sha = commands.scriptLoad(script());
    }

    @Override
    public String name() {
        return "minimal Lua, one Lettuce connection";
    }

    @Override
    public boolean tryAcquire(int keyIndex) {
        Long taken = commands.evalsha(sha, ScriptOutputType.INTEGER, keys(keyIndex),
                capacity(), refillPerSecond());
        return taken != null && taken == 1L;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
