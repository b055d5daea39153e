package io.quarkiverse.pacer.runtime.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script shipped as a resource under {@code META-INF/pacer/}, with the SHA-1 digest {@code EVALSHA} uses.
 * <p>
 * Instances are immutable and meant to be loaded once (a {@code static final} field or a startup bean) and shared.
 */
public final class LuaScript {

    /** Where scripts live on the classpath; also registered for native images. */
    public static final String RESOURCE_DIRECTORY = "META-INF/pacer/";

    private final String name;
    private final String source;
    private final String sha1;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha1 = sha1Hex(source);
    }

    /**
     * Loads {@code META-INF/pacer/<name>.lua}.
     *
     * @throws IllegalStateException if the resource is missing (a packaging bug, never a user error)
     */
    public static LuaScript load(String name) {
        return new LuaScript(name, read(name));
    }

    /**
     * Joins the files {@code META-INF/pacer/<part>.lua} verbatim, in the given order, into one script named
     * {@code name}: lets a script be split into files (one per algorithm, say) and still run as one atomic call.
     * Nothing is generated: the result is the concatenation of fixed files.
     *
     * @throws IllegalStateException if a resource is missing (a packaging bug, never a user error)
     */
    public static LuaScript join(String name, String... parts) {
        StringBuilder source = new StringBuilder();
        for (String part : parts) {
            source.append(read(part));
            if (source.charAt(source.length() - 1) != '\n') {
                source.append('\n');
            }
        }
        return new LuaScript(name, source.toString());
    }

    private static String read(String name) {
        String path = RESOURCE_DIRECTORY + name + ".lua";
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = LuaScript.class.getClassLoader();
        }
        try (InputStream in = loader.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Pacer script " + path + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Pacer script " + path, e);
        }
    }

    public String name() {
        return name;
    }

    public String source() {
        return source;
    }

    public String sha1() {
        return sha1;
    }

    private static String sha1Hex(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by the JVM specification", e);
        }
    }

    @Override
    public String toString() {
        return "LuaScript[" + name + ", sha1=" + sha1 + "]";
    }
}
