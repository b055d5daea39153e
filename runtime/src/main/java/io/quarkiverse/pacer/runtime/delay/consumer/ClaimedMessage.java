package io.quarkiverse.pacer.runtime.delay.consumer;

import io.quarkiverse.pacer.runtime.delay.StoredPayload;

/**
 * A claimed message this instance holds, waiting for a handler slot or being handled.
 *
 * @param token the claim token: acks, nacks and renewals must present it, so a message reclaimed by another consumer
 *        after its lease expired is not touched
 * @param traceContext the trace context stored with the message ({@link StoredPayload}), or {@code null}
 */
record ClaimedMessage(String id, String token, String payload, String encoding, int attempt, int redeliveries,
        long dueMillis, String traceContext) {
}
