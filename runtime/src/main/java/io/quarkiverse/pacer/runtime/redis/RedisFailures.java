package io.quarkiverse.pacer.runtime.redis;

import io.vertx.redis.client.impl.types.ErrorType;

/**
 * Tells failures of a Redis call apart: Redis being unavailable (unreachable, too slow, overloaded, failing over) is an
 * outage; a script failing on the data it finds under its keys is a data error, which an outage policy must not hide.
 */
public final class RedisFailures {

    private RedisFailures() {
    }

    /**
     * Whether Redis answered with an error caused by the data under the call's keys: a value of the wrong type, or a
     * script runtime error (a foreign value where a script expects its own state). Errors about Redis's own state
     * ({@code OOM}, {@code BUSY}, {@code LOADING}, {@code READONLY}, cluster redirections ...) are not data errors.
     */
    public static boolean isDataError(Throwable failure) {
        if (!(failure instanceof ErrorType)) {
            return false;
        }
        String message = failure.getMessage();
        if (message == null) {
            return false;
        }
        if (message.startsWith("WRONGTYPE")) {
            return true;
        }
        // Redis 7: "ERR user_script:12: ..."; Redis 6.2: "ERR Error running script (call to f_...): @user_script:12: ..."
        return message.startsWith("ERR") && message.contains("user_script:") && !message.contains("OOM");
    }
}
