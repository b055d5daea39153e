package io.quarkiverse.pacer.delay;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

/**
 * A message that Pacer gave up on: its handler failed {@link Delayed#maxAttempts()} times, or its payload could not be
 * decoded. Dead letters stay in Redis until they are {@linkplain DelayedQueue#replay(String, String) replayed} or
 * {@linkplain DelayedQueue#purge(String, String) purged}.
 *
 * <pre>{@code
 * for (DeadLetter letter : queue.deadLetters("order-timeout", 100)) {
 *     log.warnf("%s failed %d times: %s", letter.id(), letter.attempts(), letter.reason());
 * }
 * queue.replayDeadLetters("order-timeout"); // after fixing the bug
 * }</pre>
 *
 * @param id the message id
 * @param queue the queue name
 * @param reason why the message was dead-lettered, e.g. the last exception's class and message
 * @param deadAt when it was dead-lettered (Redis time)
 * @param attempts how many handling attempts failed
 * @param payload the stored payload bytes: JSON for objects, UTF-8 text for {@code String}, raw bytes for
 *        {@code byte[]}
 */
public record DeadLetter(String id, String queue, String reason, Instant deadAt, int attempts, byte[] payload) {

    /**
     * Checks the required components.
     *
     * @throws NullPointerException when {@code id}, {@code queue} or {@code payload} is {@code null}
     * @param id the message id
     * @param queue the queue name
     * @param reason why the message was dead-lettered
     * @param deadAt when it was dead-lettered
     * @param attempts how many times it was handled
     * @param payload the stored payload
     */
    public DeadLetter {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(payload, "payload");
    }

    /**
     * The payload as UTF-8 text (the JSON document for object payloads).
     *
     * @return the payload decoded as UTF-8
     */
    public String payloadText() {
        return new String(payload, StandardCharsets.UTF_8);
    }
}
