package io.quarkiverse.pacer.optional.tracing;

import java.time.Duration;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/** Plain Redis commands on the messages of a single-shard queue (default key prefix), to inspect what is stored. */
final class RedisHash {

    private RedisHash() {
    }

    static Response send(PacerRedis redis, String command, Object... args) {
        Request request = Request.cmd(Command.create(command));
        for (Object arg : args) {
            request.arg(arg.toString());
        }
        return redis.send(request).await().atMost(Duration.ofSeconds(10));
    }

    static String messagesKey(String queue) {
        return "pacer:d:{" + queue + "}:messages";
    }

    static String dueKey(String queue) {
        return "pacer:d:{" + queue + "}:due";
    }

    /** Message {@code id} as stored: {@code <encoding><due>:<attempts>:<redeliveries>:<payload part>}. */
    static String stored(PacerRedis redis, String queue, String id) {
        return send(redis, "HGET", messagesKey(queue), id).toString();
    }
}
