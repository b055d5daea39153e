package io.quarkiverse.pacer.runtime.redis;

import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/** Reads one setting out of a {@code CONFIG GET <name>} reply, whatever the protocol version. */
public final class ConfigReply {

    private ConfigReply() {
    }

    /**
     * The value of {@code name} in {@code reply}: a RESP3 map of name to value, or a RESP2 array {@code [name, value]};
     * Vert.x looks a name up in both.
     *
     * @return the value, or {@code null} when the reply does not carry {@code name}
     */
    public static String value(Response reply, String name) {
        if (reply == null || reply.type() != ResponseType.MULTI || !reply.containsKey(name)) {
            return null;
        }
        Response value = reply.get(name);
        return value == null ? null : value.toString();
    }
}
