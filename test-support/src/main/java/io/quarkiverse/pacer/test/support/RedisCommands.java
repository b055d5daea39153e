package io.quarkiverse.pacer.test.support;

import java.time.Duration;
import java.util.List;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/** Sends plain Redis commands from tests, to set up or inspect state Pacer's API does not expose. */
public final class RedisCommands {

    private RedisCommands() {
    }

    public static Response send(PacerRedis redis, String command, Object... args) {
        Request request = Request.cmd(Command.create(command));
        for (Object arg : args) {
            request.arg(arg.toString());
        }
        return redis.send(request).await().atMost(Duration.ofSeconds(10));
    }

    /** The hash holding every message of a single-shard queue (one field per id), with the default key prefix. */
    public static String messagesKey(String queue) {
        return "pacer:d:{" + queue + "}:messages";
    }

    /** The KEYS of every delayed script for the shard whose keys start with {@code base}, in DelayedKeys order. */
    public static List<String> shardKeys(String base) {
        return List.of(base + "due", base + "inflight", base + "dead", base + "messages", base + "claims",
                base + "reasons");
    }

    /** Whether message {@code id} of a single-shard queue is stored. */
    public static boolean hasMessage(PacerRedis redis, String queue, String id) {
        return send(redis, "HEXISTS", messagesKey(queue), id).toInteger() == 1;
    }

    /** The key of one of the sorted sets ({@code due}, {@code inflight}, {@code dead}) of a single-shard queue. */
    public static String setKey(String queue, String state) {
        return "pacer:d:{" + queue + "}:" + state;
    }
}
