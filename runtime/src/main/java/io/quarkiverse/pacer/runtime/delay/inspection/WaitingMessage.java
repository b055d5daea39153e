package io.quarkiverse.pacer.runtime.delay.inspection;

import java.time.Instant;

/**
 * A message waiting for its due time (or for a consumer), as shown by the Dev UI.
 *
 * @param id the message id
 * @param queue the queue
 * @param dueAt when it is due (Redis time)
 * @param attempts failed handling attempts so far
 * @param redeliveries how often an expired lease returned it to the queue
 * @param payload the stored payload as text (JSON or text; Base64 bytes prefixed {@code base64:}), possibly cut
 * @param truncated whether {@code payload} was cut
 */
public record WaitingMessage(String id, String queue, Instant dueAt, int attempts, int redeliveries, String payload,
        boolean truncated) {
}
