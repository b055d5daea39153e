package io.quarkiverse.pacer.runtime.redis;

/**
 * The test kit's clock (quarkus-pacer-test): shifts the time every Pacer script reads by an offset the test controls.
 * <p>
 * Scripts as shipped read Redis {@code TIME} and take no clock argument; nothing here runs in an application. When the
 * kit installs a shift ({@link LuaScript#shiftClock(ScriptClockShift)}), each script is sent as its test-clock variant:
 * the {@link #prelude()} file joined in front of it (after its flags line), and the offset appended as the last
 * {@code ARGV} of every call. The offset travels with each call, so it reaches every node of a Redis Cluster without a
 * key of its own.
 */
public interface ScriptClockShift {

    /**
     * The name of the file under {@code META-INF/pacer/} (without {@code .lua}) joined in front of every script: it
     * removes the offset from {@code ARGV} and makes {@code redis.call('TIME')} return Redis time plus the offset.
     */
    String prelude();

    /** The offset in microseconds, never negative. */
    long offsetMicros();
}
