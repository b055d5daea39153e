package io.quarkiverse.pacer.test;

import java.time.Instant;

/**
 * A message waiting in a delay queue, as {@link PacerTestQueues#waiting(String)} lists it.
 *
 * @param id the message id (the one {@code schedule} returned or was given)
 * @param queue the queue
 * @param dueAt when it is due, in Pacer's time (see {@link PacerTestClock#now()})
 * @param attempt the attempt its next delivery will be: 1 for a message never handed to a consumer, {@code n + 1}
 *        after {@code n} failed attempts (as {@code DelayedMessage.attempt()} will report it)
 * @param payload the stored payload as text: JSON, or the text of a {@code String} payload; a {@code byte[]} payload
 *        in Base64, prefixed {@code base64:}
 */
public record QueuedMessage(String id, String queue, Instant dueAt, int attempt, String payload) {
}
