package io.quarkiverse.pacer.runtime.delay;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Turns payloads into the text stored in Redis and back: {@code String} as is, {@code byte[]} as Base64, anything else
 * as JSON through the application's {@link ObjectMapper}.
 */
public final class PayloadCodec {

    /** Stored as text: a {@code String} payload or a JSON document. */
    public static final String TEXT = "t";
    /** Stored as Base64: a {@code byte[]} payload. */
    public static final String BYTES = "b";

    public record Encoded(String value, String encoding) {
    }

    private final ObjectMapper mapper;

    public PayloadCodec(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    public Encoded encode(Object payload) {
        if (payload == null) {
            throw new IllegalArgumentException("Delayed message payload must not be null");
        }
        if (payload instanceof String text) {
            return new Encoded(text, TEXT);
        }
        if (payload instanceof byte[] bytes) {
            return new Encoded(Base64.getEncoder().encodeToString(bytes), BYTES);
        }
        try {
            return new Encoded(mapper.writeValueAsString(payload), TEXT);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("Delayed message payload of type " + payload.getClass().getName()
                    + " cannot be serialized to JSON: " + reason(e) + "; schedule a type with JSON properties"
                    + " (public fields, getters or a record), or a String or byte[]", e);
        }
    }

    /**
     * Jackson's message without its advice to disable {@code FAIL_ON_EMPTY_BEANS}: storing an empty object would
     * lose the payload, which is never what the user wants.
     */
    public static String reason(Exception e) {
        String message = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
        if (message == null) {
            return e.getClass().getName();
        }
        return JACKSON_ADVICE.matcher(message).replaceAll("");
    }

    private static final Pattern JACKSON_ADVICE = Pattern.compile("\\s*\\(to avoid exception, disable [^)]*\\)");

    static byte[] bytes(String value, String encoding) {
        return BYTES.equals(encoding) ? Base64.getDecoder().decode(value) : value.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Decodes a stored payload for a consumer.
     *
     * @param kind what the consumer takes
     * @param type the Jackson type for {@link PayloadKind#JSON}
     * @throws Exception when the payload does not fit the consumer's type
     */
    public Object decode(String value, String encoding, PayloadKind kind, JavaType type) throws Exception {
        switch (kind) {
            case STRING:
                return BYTES.equals(encoding) ? new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)
                        : value;
            case BYTES:
                return bytes(value, encoding);
            case AS_STORED:
                return BYTES.equals(encoding) ? Base64.getDecoder().decode(value) : value;
            default:
                return BYTES.equals(encoding) ? mapper.readValue(Base64.getDecoder().decode(value), type)
                        : mapper.readValue(value, type);
        }
    }
}
