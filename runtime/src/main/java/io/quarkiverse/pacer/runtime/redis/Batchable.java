package io.quarkiverse.pacer.runtime.redis;

import java.util.List;

import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A request that may travel in one call with others of its group: while a connection has calls of a group in flight,
 * the group's next requests wait, and go together as one call when an answer comes ({@link RequestBatches}). A request
 * alone is sent as it is, so batching never delays a lone caller.
 */
public interface Batchable {

    /** Requests whose groups are equal may travel in one call (on Redis Cluster a group lies within one slot). */
    Object group();

    /**
     * One request doing the work of {@code parts}, in order (this request among them); with {@code source}, the script
     * text instead of its hash (after {@code NOSCRIPT}).
     */
    Request batch(List<Batchable> parts, boolean source);

    /**
     * The script a batch runs, loaded where a batch found it missing ({@code NOSCRIPT}) and its parts are retried one by
     * one; {@code null} when a batch loads it itself.
     */
    default LuaScript batchScript() {
        return null;
    }

    /** The answer to part {@code index} in a batch's {@code response}; an error element fails that part alone. */
    default Response part(Response response, int index) {
        return response.get(index);
    }
}
