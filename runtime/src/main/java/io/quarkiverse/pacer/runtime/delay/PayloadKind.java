package io.quarkiverse.pacer.runtime.delay;

/** What a {@code @Delayed} method takes as payload, decided at build time. */
public enum PayloadKind {
    /** {@code String}: the stored text, untouched. */
    STRING,
    /** {@code byte[]}: the stored bytes, untouched. */
    BYTES,
    /** Any other type: JSON decoded with the application's {@code ObjectMapper}. */
    JSON,
    /** As stored, for a forwarding channel: the text ({@code String} payloads and JSON) or the bytes. */
    AS_STORED
}
