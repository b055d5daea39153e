package io.quarkiverse.pacer.benchmarks.throttle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The physical limit of a distributed token bucket from Java: the minimal token-bucket script
 * ({@code baseline/minimal-token-bucket.lua}: server {@code TIME}, one hash, {@code PEXPIRE}) sent with
 * {@code EVALSHA} over <em>one</em> multiplexed Lettuce connection shared by all callers, as Lettuce intends.
 */
public final class MinimalLuaLettuceBaseline implements RateLimiterPeer {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> commands;
    private final String sha;
    private String[][] keys = new String[0][];
    private String capacity;
    private String refillPerSecond;

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
    public boolean isBaseline() {
        return true;
    }

    @Override
    public void prepare(ThrottleLimits limits, String[] keyNames) {
        capacity = Long.toString(limits.limit());
        refillPerSecond = Double.toString(limits.limit() / (double) limits.window().toSeconds());
        keys = new String[keyNames.length][];
        for (int i = 0; i < keyNames.length; i++) {
            keys[i] = new String[] { "baseline:{" + limits.label() + ":" + keyNames[i] + "}" };
        }
    }

    @Override
    public boolean tryAcquire(int keyIndex) {
        Long taken = commands.evalsha(sha, ScriptOutputType.INTEGER, keys[keyIndex], capacity, refillPerSecond);
        return taken != null && taken == 1L;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }

    private static String script() {
        try (InputStream in = MinimalLuaLettuceBaseline.class.getClassLoader()
                .getResourceAsStream("baseline/minimal-token-bucket.lua")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
