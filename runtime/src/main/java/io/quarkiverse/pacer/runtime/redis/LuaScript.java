package io.quarkiverse.pacer.runtime.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * A Lua script shipped as a resource under {@code META-INF/pacer/}, with the SHA-1 digest {@code EVALSHA} uses.
 * <p>
 * Instances are immutable and meant to be loaded once (a {@code static final} field or a startup bean) and shared.
 * <p>
 * Every request runs {@link #toSend()} and ends with {@link #appendClockArgument(Request)}: in an application, that is
 * this script, as shipped, and nothing appended. Only the test kit ({@code quarkus-pacer-test}) installs a
 * {@link ScriptClockShift}; from then on each script runs as its test-clock variant (see {@link ScriptClockShift}).
 */
public final class LuaScript {

    /** Where scripts live on the classpath; also registered for native images. */
    public static final String RESOURCE_DIRECTORY = "META-INF/pacer/";

    /** The test kit's clock shift; {@code null} unless quarkus-pacer-test installed one. */
    private static volatile ScriptClockShift clockShift;

    private final String name;
    private final String source;
    private final String sha1;
    /** {@link #sha1} in UTF-8, as every {@code EVALSHA} sends it. */
    private final byte[] sha1Bytes;
    /** Set on a test-clock variant: the shift whose offset each call appends. */
    private final ScriptClockShift shift;
    /** This script's test-clock variant, made on first use under the test kit. */
    private volatile LuaScript shifted;

    private LuaScript(String name, String source) {
        this(name, source, null);
    }

    private LuaScript(String name, String source, ScriptClockShift shift) {
        this.name = name;
        this.source = source;
        this.sha1 = sha1Hex(source);
        this.sha1Bytes = sha1.getBytes(StandardCharsets.UTF_8);
        this.shift = shift;
    }

    /**
     * Installs the test kit's clock shift, or removes it ({@code null}): only quarkus-pacer-test calls this.
     */
    public static void shiftClock(ScriptClockShift shift) {
        clockShift = shift;
    }

    /**
     * The script a request sends: this one; once the test kit has installed its clock shift, this script's test-clock
     * variant. A request built from it ends with {@link #appendClockArgument(Request)}.
     */
    public LuaScript toSend() {
        ScriptClockShift installed = clockShift;
        if (installed == null || shift != null) {
            return this;
        }
        LuaScript variant = shifted;
        if (variant == null || variant.shift != installed) {
            variant = new LuaScript(name + "+" + installed.prelude(), withPrelude(source, read(installed.prelude())),
                    installed);
            shifted = variant;
        }
        return variant;
    }

    /**
     * Appends what a call takes after its {@code ARGV}: nothing for a script as shipped; for a test-clock variant, the
     * clock offset in microseconds, which its prelude removes from {@code ARGV} before the script reads it.
     */
    public Request appendClockArgument(Request request) {
        return shift == null ? request : request.arg(shift.offsetMicros());
    }

    /** The prelude goes first, after the flags line ({@code #!lua flags=...}) that must open a script. */
    private static String withPrelude(String source, String prelude) {
        int bodyStart = source.startsWith("#!") ? source.indexOf('\n') + 1 : 0;
        return source.substring(0, bodyStart) + prelude + (prelude.endsWith("\n") ? "" : "\n")
                + source.substring(bodyStart);
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

    /**
     * The start of a call of this script (the one {@link #toSend()} returned): {@code EVAL} with its source, or
     * {@code EVALSHA} with its SHA-1, encoded once; keys and arguments follow.
     */
    public Request command(boolean source) {
        return source ? Request.cmd(Command.EVAL).arg(this.source) : Request.cmd(Command.EVALSHA).arg(sha1Bytes);
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
