package io.quarkiverse.pacer.deployment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A second "instance" of the application: its own Vert.x Redis client (own connections) to the same server, running
 * the same throttle script with the documented KEYS/ARGV protocol, independently of the Pacer beans.
 */
final class SecondInstance implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Redis client;
    private final String sha;
    private int tokens;

    SecondInstance(Vertx vertx, int port, String scriptSha) {
        this.client = Redis.createClient(vertx, new RedisOptions().setConnectionString("redis://localhost:" + port)
                .setMaxPoolSize(8).setMaxPoolWaiting(256));
        this.sha = scriptSha;
    }

    /** Base key of a policy for the global key, as Pacer forms it with the default prefix. */
    static String globalKey(String policy) {
        return "pacer:t:{" + policy + ":}";
    }

    /**
     * Acquires {@code cost} permits of one policy (mode 0) and returns whether they were granted.
     *
     * @param code algorithm code (1 FIXED_WINDOW ... 6 CONCURRENCY)
     */
    boolean acquire(String baseKey, int code, int limit, Duration window, int burst, int cost) {
        Response response = eval(List.of(baseKey), "0", nextToken(), code, limit, window, burst, cost);
        return response.get(0).toInteger() == 1;
    }

    Response eval(List<String> keys, String mode, String token, int code, int limit, Duration window, int burst,
            int cost) {
        Request request = Request.cmd(Command.EVALSHA).arg(sha).arg(keys.size());
        keys.forEach(request::arg);
        request.arg(mode).arg(token);
        for (int i = 0; i < keys.size(); i++) {
            request.arg(code).arg(limit).arg(window.toNanos() / 1000).arg(burst).arg(cost).arg(0);
        }
        return send(request);
    }

    Response send(Request request) {
        try {
            return client.send(request).toCompletionStage().toCompletableFuture().get(TIMEOUT.toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** All Pacer throttle keys on the server. */
    List<String> throttleKeys() {
        List<String> keys = new ArrayList<>();
        for (Response key : send(Request.cmd(Command.KEYS).arg("pacer:t:*"))) {
            keys.add(key.toString());
        }
        return keys;
    }

    long pttl(String key) {
        return send(Request.cmd(Command.PTTL).arg(key)).toLong();
    }

    /** Redis server time in microseconds. */
    long timeMicros() {
        Response time = send(Request.cmd(Command.TIME));
        return time.get(0).toLong() * 1_000_000 + time.get(1).toLong();
    }

    private synchronized String nextToken() {
        return "second-instance-" + (++tokens);
    }

    @Override
    public void close() {
        client.close();
    }
}
