package io.quarkiverse.pacer.runtime.delay;

import io.quarkiverse.pacer.runtime.redis.LuaScript;

/** The Lua scripts of delay queues, loaded once. */
final class DelayedScripts {

    static final LuaScript SCHEDULE = LuaScript.load("delayed-schedule");
    static final LuaScript SCHEDULE_ALL = LuaScript.load("delayed-schedule-all");
    static final LuaScript CLAIM = LuaScript.load("delayed-claim");
    static final LuaScript ACK = LuaScript.load("delayed-ack");
    static final LuaScript NACK = LuaScript.load("delayed-nack");
    static final LuaScript THROTTLED = LuaScript.load("delayed-throttled");
    static final LuaScript RENEW = LuaScript.load("delayed-renew");
    static final LuaScript CANCEL = LuaScript.load("delayed-cancel");
    static final LuaScript SIZE = LuaScript.load("delayed-size");
    static final LuaScript DEAD_LETTERS = LuaScript.load("delayed-dead-letters");
    static final LuaScript REPLAY = LuaScript.load("delayed-replay");
    static final LuaScript PURGE = LuaScript.load("delayed-purge");
    static final LuaScript DELIVER_NOW = LuaScript.load("delayed-deliver-now");
    static final LuaScript WAITING = LuaScript.load("delayed-waiting");

    /** Most (id, token) pairs one ack or renew call carries, so one call's work stays small. */
    static final int MAX_PAIRS_PER_CALL = 256;

    /** Most messages one schedule-all call stores (the bound in delayed-schedule-all.lua). */
    static final int MAX_SCHEDULE_ALL = 1000;

    /** Most dead letters one replay or purge call moves. */
    static final int DEAD_LETTER_BATCH = 500;

    private DelayedScripts() {
    }
}
