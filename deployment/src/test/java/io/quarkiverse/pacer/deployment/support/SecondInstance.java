package io.quarkiverse.pacer.deployment.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A second "instance" of the application: its own Vert.x Redis client (own connections) to the same server, running
 * the same throttle script with the documented KEYS/ARGV protocol, independently of the Pacer beans.
 */
public final class SecondInstance implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Redis client;
    private final String sha;
    /** The script's source, to load it on a node that answers NOSCRIPT; {@code null}: the server has it. */
    private final String source;
    private int tokens;
    private volatile RedisConnection connection;

    /** A second instance on a standalone Redis; it loads the script itself when the server does not have it yet. */
    public SecondInstance(Vertx vertx, int port, LuaScript script) {
        this(Redis.createClient(vertx, new RedisOptions().setConnectionString("redis://localhost:" + port)
                .setMaxPoolSize(8).setMaxPoolWaiting(256)), script.sha1(), script.source());
    }

    private SecondInstance(Redis client, String sha, String source) {
        this.client = client;
        this.sha = sha;
        this.source = source;
    }

    /** A second instance on a Redis Cluster, given {@code quarkus.redis.hosts}, loading the script per node. */
    public static SecondInstance onCluster(Vertx vertx, String hosts, LuaScript script) {
        RedisOptions options = new RedisOptions().setType(RedisClientType.CLUSTER).setMaxPoolSize(8)
                .setMaxPoolWaiting(256);
        for (String host : hosts.split(",")) {
            options.addConnectionString(host.trim());
        }
        SecondInstance instance = new SecondInstance(Redis.createClient(vertx, options), script.sha1(),
                script.source());
        // One long-lived, pipelined cluster connection (as Pacer keeps), not a pooled connection per request.
        instance.connection = await(instance.client.connect());
        return instance;
    }

    private static <T> T await(io.vertx.core.Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Base key of a policy for the global key, as Pacer forms it with the default prefix (not stacked globally). */
    public static String globalKey(String policy) {
        return ThrottleKeyLayout.baseKey("pacer", policy, "", policy);
    }

    /**
     * Acquires {@code cost} permits of one policy (mode 0) and returns whether they were granted.
     *
     * @param code algorithm code (1 FIXED_WINDOW ... 6 CONCURRENCY)
     */
    public boolean acquire(String baseKey, int code, int limit, Duration window, int burst, int cost) {
        Response response = eval(List.of(baseKey), "0", nextToken(), code, limit, window, burst, cost);
        return response.get(0).toInteger() == 1;
    }

    public Response eval(List<String> keys, String mode, String token, int code, int limit, Duration window, int burst,
            int cost) {
        List<Object> arguments = new ArrayList<>(keys);
        arguments.add(mode);
        arguments.add(token);
        for (int i = 0; i < keys.size(); i++) {
            arguments.addAll(List.of(code, limit, window.toNanos() / 1000, burst, cost, 0));
        }
        return eval(keys.size(), arguments);
    }

    /** EVALSHA; on a node without the script (a cluster node Pacer never used), EVAL, which also caches it. */
    public Response eval(int keyCount, List<Object> keysThenArgs) {
        try {
            return send(scriptRequest(Command.EVALSHA, sha, keyCount, keysThenArgs));
        } catch (IllegalStateException e) {
            if (source == null || !String.valueOf(e.getCause()).contains("NOSCRIPT")) {
                throw e;
            }
            return send(scriptRequest(Command.EVAL, source, keyCount, keysThenArgs));
        }
    }

    private static Request scriptRequest(Command command, String script, int keyCount, List<Object> keysThenArgs) {
        Request request = Request.cmd(command).arg(script).arg(keyCount);
        for (Object argument : keysThenArgs) {
            request.arg(argument.toString());
        }
        return request;
    }

    public Response send(Request request) {
        return await(connection != null ? connection.send(request) : client.send(request));
    }

    /** All Pacer throttle keys on the server. */
    public List<String> throttleKeys() {
        List<String> keys = new ArrayList<>();
        for (Response key : send(Request.cmd(Command.KEYS).arg("pacer:t:*"))) {
            keys.add(key.toString());
        }
        return keys;
    }

    public long pttl(String key) {
        return send(Request.cmd(Command.PTTL).arg(key)).toLong();
    }

    /** Redis server time in microseconds. */
    public long timeMicros() {
        Response time = send(Request.cmd(Command.TIME));
        return time.get(0).toLong() * 1_000_000 + time.get(1).toLong();
    }

    private synchronized String nextToken() {
        return "second-instance-" + (++tokens);
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.close();
        }
        client.close();
    }
}
