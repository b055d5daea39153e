package io.quarkiverse.pacer.runtime.scheduler;

import java.util.HashMap;
import java.util.Map;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The definitions of the programmatic {@code PACER} jobs whose task is a class: one HASH,
 * {@code <key-prefix>:s:jobs}, identity to {@link StoredJobDefinition} JSON. It has no time to live: a definition stays until
 * {@code Scheduler.unscheduleJob(identity)} deletes it, and the hash goes with its last field.
 */
final class JobDefinitionStore {

    private final PacerRedis redis;
    private final String key;

    JobDefinitionStore(PacerRedis redis, String keyPrefix) {
        this.redis = redis;
        this.key = keyPrefix + ":s:jobs";
    }

    String key() {
        return key;
    }

    Uni<Void> put(String identity, String json) {
        return redis.send(Request.cmd(Command.HSET).arg(key).arg(identity).arg(json)).replaceWithVoid();
    }

    /** @return whether a definition was deleted */
    Uni<Boolean> remove(String identity) {
        return redis.send(Request.cmd(Command.HDEL).arg(key).arg(identity)).map(reply -> reply.toInteger() == 1);
    }

    /** Every stored definition, identity to JSON. */
    Uni<Map<String, String>> readAll() {
        return redis.send(Request.cmd(Command.HGETALL).arg(key)).map(JobDefinitionStore::toMap);
    }

    private static Map<String, String> toMap(Response hash) {
        Map<String, String> read = new HashMap<>();
        if (hash != null) {
            for (String identity : hash.getKeys()) {
                read.put(identity, hash.get(identity).toString());
            }
        }
        return read;
    }
}
