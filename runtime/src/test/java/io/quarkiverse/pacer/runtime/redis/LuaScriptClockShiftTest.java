package io.quarkiverse.pacer.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A script is sent as shipped unless the test kit installed a clock shift; then as its variant: the shift's prelude
 * first (after a flags line), its own hash, and a variant of a variant is itself.
 */
class LuaScriptClockShiftTest {

    private static final ScriptClockShift SHIFT = new ScriptClockShift() {
        @Override
        public String prelude() {
            return "shift-for-test";
        }

        @Override
        public long offsetMicros() {
            return 42;
        }
    };

    @AfterEach
    void uninstall() {
        LuaScript.shiftClock(null);
    }

    @Test
    void sentAsShippedWithoutShift() {
        LuaScript script = LuaScript.load("server-time");
        assertThat(script.toSend()).isSameAs(script);
    }

    @Test
    void sentWithThePreludeFirstUnderAShift() {
        LuaScript script = LuaScript.load("server-time");
        LuaScript.shiftClock(SHIFT);

        LuaScript sent = script.toSend();

        assertThat(sent.source()).startsWith("-- shift-for-test:").endsWith(script.source())
                .contains("local shifted = true\n-- server-time:");
        assertThat(sent.sha1()).isNotEqualTo(script.sha1());
        assertThat(sent.toSend()).isSameAs(sent);
        assertThat(script.toSend()).isSameAs(sent);
        assertThat(script.source()).startsWith("-- server-time:");

        LuaScript.shiftClock(null);
        assertThat(script.toSend()).isSameAs(script);
    }

    @Test
    void flagsLineStaysFirst() {
        LuaScript script = LuaScript.join("flagged", "throttle-cross-slot", "server-time");
        LuaScript.shiftClock(SHIFT);

        String sent = script.toSend().source();

        assertThat(sent).startsWith("#!lua flags=allow-cross-slot-keys\n-- shift-for-test:");
        assertThat(sent.indexOf("#!")).isEqualTo(sent.lastIndexOf("#!"));
    }
}
