package io.quarkiverse.pacer.runtime.throttle.policy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.util.HexFormat;

import io.quarkiverse.pacer.throttle.CompositeKey;

/**
 * Encodes throttling keys: {@code @ThrottleKey} arguments or a resolver's result become one string that is unambiguous
 * (several parts joined by {@code ,} with {@code \} and {@code ,} escaped; {@code null} encoded as {@code \0}, which no
 * value can produce) and short (longer than {@value #MAX_LENGTH} characters: {@code \h} + SHA-256 hex).
 */
public final class ThrottleKeyBuilder {

    static final int MAX_LENGTH = 100;
    static final String NULL = "\\0";
    /** The global key of a policy (no key parameters, no resolver). */
    public static final String GLOBAL = "";

    private ThrottleKeyBuilder() {
    }

    /** The key of one value (a single {@code @ThrottleKey} argument or a resolver's result). */
    public static String of(Object value) {
        if (value == null) {
            return NULL;
        }
        String text = value.toString();
        if (text == null) {
            return NULL;
        }
        if (text.isEmpty()) {
            // Distinct from the global key.
            return "\\e";
        }
        return shorten(escape(text));
    }

    /**
     * What a caller's principal stands for as a key: its name; {@code null} (one key shared by all anonymous callers)
     * without a principal or with an empty name.
     */
    public static String principalName(Principal principal) {
        String name = principal == null ? null : principal.getName();
        return name == null || name.isEmpty() ? null : name;
    }

    /** The key of several {@code @ThrottleKey} arguments, in parameter order. */
    public static String of(Object[] arguments, int[] positions) {
        if (positions.length == 1) {
            return of(arguments[positions[0]]);
        }
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < positions.length; i++) {
            if (i > 0) {
                key.append(',');
            }
            Object value = arguments[positions[i]];
            String text = value == null ? null : value.toString();
            key.append(text == null ? NULL : escape(text));
        }
        return shorten(key.toString());
    }

    /** The key of all of {@code parts}, in order: what {@code @ThrottleKey} parameters with these values give. */
    public static String ofParts(Object[] parts) {
        if (parts.length == 1) {
            return of(parts[0]);
        }
        int[] positions = new int[parts.length];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = i;
        }
        return of(parts, positions);
    }

    /**
     * The key of a programmatic call: {@code null} is the global key, a {@code CompositeKey} its own value, anything
     * else one part.
     */
    public static String ofProgrammatic(Object key) {
        if (key == null) {
            return GLOBAL;
        }
        if (key instanceof CompositeKey composite) {
            return composite.value();
        }
        return of(key);
    }

    private static String escape(String text) {
        if (text.indexOf('\\') < 0 && text.indexOf(',') < 0) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' || c == ',') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    private static String shorten(String key) {
        if (key.length() <= MAX_LENGTH) {
            return key;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return "\\h" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the JVM specification", e);
        }
    }
}
