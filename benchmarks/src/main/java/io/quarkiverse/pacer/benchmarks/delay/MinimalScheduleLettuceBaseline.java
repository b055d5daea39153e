package io.quarkiverse.pacer.benchmarks.delay;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.quarkiverse.pacer.benchmarks.BaselineScripts;

/**
 * The physical limit of a blocking {@code schedule} from Java: the minimal schedule script
 * ({@code baseline/minimal-schedule.lua}: server {@code TIME}, one {@code HSET}, one {@code ZADD}) sent with
 * {@code EVALSHA} over <em>one</em> multiplexed Lettuce connection shared by all producers, each waiting for its reply.
 */
final class MinimalScheduleLettuceBaseline implements AutoCloseable {

    static final String NAME = "minimal Lua (HSET + ZADD), one Lettuce connection";

    private static final String[] KEYS = { "baseline:{schedule}:due", "baseline:{schedule}:messages" };

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> commands;
    private final String sha;

    MinimalScheduleLettuceBaseline(String redisUri) {
        this.client = RedisClient.create(redisUri);
        this.connection = client.connect();
        this.commands = connection.sync();
        this.sha = commands.scriptLoad(script());
    }

    /** Stores message {@code producer}-{@code sequence} due {@code delayMillis} after Redis's clock. */
    void schedule(int producer, long sequence, String payload, long delayMillis) {
        commands.evalsha(sha, ScriptOutputType.INTEGER, KEYS, producer + "-" + sequence, payload,
                Long.toString(delayMillis));
    }

    private static String script() {
        return BaselineScripts.read("minimal-schedule");
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
