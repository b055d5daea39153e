package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.pacer.runtime.delay.StoredPayload;
import io.vertx.redis.client.Response;

/**
 * What {@code delayed-claim.lua} returned: the Redis time, the next due time ({@code -1} for none), the expired leases
 * it reclaimed, and the claimed messages.
 */
record ClaimReply(long nowMillis, long nextDueMillis, int reclaimed, List<ClaimedMessage> messages) {

    /** Fields per message in the reply. */
    private static final int FIELDS = 7;
    private static final int HEADER = 3;

    static ClaimReply of(Response response) {
        List<ClaimedMessage> messages = new ArrayList<>((response.size() - HEADER) / FIELDS);
        for (int i = HEADER; i + FIELDS - 1 < response.size(); i += FIELDS) {
            StoredPayload payload = StoredPayload.read(response.get(i + 2).toString(), response.get(i + 3).toString());
            messages.add(new ClaimedMessage(response.get(i).toString(), response.get(i + 1).toString(),
                    payload.value(), payload.encoding(), response.get(i + 4).toInteger(),
                    response.get(i + 5).toInteger(), response.get(i + 6).toLong(), payload.traceContext()));
        }
        return new ClaimReply(response.get(0).toLong(), response.get(1).toLong(), response.get(2).toInteger(),
                messages);
    }
}
