package io.quarkiverse.pacer.runtime.delay;

/**
 * The payload part of a stored message (what follows {@code <encoding><due>:<attempts>:<redeliveries>:} in
 * {@code delayed-message.lua}'s layout), the Java side of that one reader. A message stored with a trace context has
 * its encoding in upper case ({@code T}, {@code B}) and the context in front of the payload, length first:
 * {@code <n>:<n characters of context><payload>}. A message without one keeps the lower-case encoding and costs
 * nothing extra; messages stored before tracing existed read the same way. The scripts copy the whole part when they
 * rewrite a message, so retries, {@code deliverNow} and replays keep the message's original context.
 *
 * @param value the payload as encoded by {@link PayloadCodec}
 * @param encoding {@link PayloadCodec#TEXT} or {@link PayloadCodec#BYTES}
 * @param traceContext the compact trace context stored with the message, or {@code null}
 */
public record StoredPayload(String value, String encoding, String traceContext) {

    /** Reads the payload part of a stored message and its encoding letter, as the scripts return them. */
    public static StoredPayload read(String stored, String encoding) {
        if (encoding.isEmpty() || Character.isLowerCase(encoding.charAt(0))) {
            return new StoredPayload(stored, encoding, null);
        }
        String lower = encoding.toLowerCase();
        int colon = stored.indexOf(':');
        if (colon < 1) {
            return new StoredPayload(stored, lower, null);
        }
        int start = colon + 1;
        int end = start + Integer.parseInt(stored, 0, colon, 10);
        if (end > stored.length()) {
            // Cut short by a reader that returns a prefix (delayed-waiting.lua): the context without the payload.
            return new StoredPayload("", lower, null);
        }
        return new StoredPayload(stored.substring(end), lower, stored.substring(start, end));
    }

    /** The payload's bytes: the text in UTF-8, or the Base64 decoded. */
    public byte[] bytes() {
        return PayloadCodec.bytes(value, encoding);
    }

    /** The payload part to store for {@code encoded}: with {@code traceContext} in front unless it is {@code null}. */
    public static String value(PayloadCodec.Encoded encoded, String traceContext) {
        return traceContext == null ? encoded.value() : traceContext.length() + ":" + traceContext + encoded.value();
    }

    /** The encoding letter to store for {@code encoded}: upper case when a trace context is stored with it. */
    public static String encoding(PayloadCodec.Encoded encoded, String traceContext) {
        return traceContext == null ? encoded.encoding() : encoded.encoding().toUpperCase();
    }
}
