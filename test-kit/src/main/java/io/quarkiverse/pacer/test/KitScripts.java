package io.quarkiverse.pacer.test;

import java.time.Duration;

import io.quarkiverse.pacer.runtime.redis.LuaScript;

/** The scripts the kit runs besides Pacer's own, and the bound on each of the kit's Redis calls. */
final class KitScripts {

    /** Pacer's time (under the test clock, Redis time plus the offset), in microseconds. */
    static final LuaScript SERVER_TIME = LuaScript.load("server-time");

    /** Makes a shard's messages due later due now (test-deliver-all.lua, after the stored-message reader). */
    static final LuaScript DELIVER_ALL = LuaScript.join("test-deliver-all", "delayed-message", "test-deliver-all");

    /** Most messages one deliver-all call makes due. */
    static final int DELIVER_ALL_BATCH = 500;

    /** The longest a single Redis call of the kit may take. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private KitScripts() {
    }
}
