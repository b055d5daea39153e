package io.quarkiverse.pacer.runtime.delay;

import io.quarkiverse.pacer.runtime.delay.producer.ScheduleBatchPart;
import io.quarkiverse.pacer.runtime.redis.LuaScript;

/**
 * The Lua scripts of delay queues, loaded once. Those that read a stored message or a dead letter run with
 * delayed-message.lua (the one reader of the stored layout) joined in front. Public for tests that play a second instance.
 */
public final class DelayedScripts {

    public static final LuaScript SCHEDULE = schedule("delayed-schedule");
    /** Concurrent schedule calls of one shard in one script run ({@link ScheduleBatchPart}). */
    public static final LuaScript SCHEDULE_BATCH = schedule("delayed-schedule-batch");
    public static final LuaScript SCHEDULE_ALL = readingMessages("delayed-schedule-all");
    public static final LuaScript CLAIM = readingMessages("delayed-claim");
    public static final LuaScript ACK = LuaScript.load("delayed-ack");
    public static final LuaScript NACK = readingMessages("delayed-nack");
    public static final LuaScript THROTTLED = readingMessages("delayed-throttled");
    public static final LuaScript RENEW = LuaScript.load("delayed-renew");
    public static final LuaScript CANCEL = LuaScript.load("delayed-cancel");
    public static final LuaScript SIZE = LuaScript.load("delayed-size");
    public static final LuaScript DEAD_LETTERS = readingMessages("delayed-dead-letters");
    public static final LuaScript REPLAY = readingMessages("delayed-replay");
    public static final LuaScript PURGE = readingMessages("delayed-purge");
    public static final LuaScript DELIVER_NOW = readingMessages("delayed-deliver-now");
    public static final LuaScript WAITING = readingMessages("delayed-waiting");

    /** Most (id, token) pairs one ack or renew call carries, so one call's work stays small. */
    public static final int MAX_PAIRS_PER_CALL = 256;

    /** Most messages one schedule-all call stores (the bound in delayed-schedule-all.lua). */
    public static final int MAX_SCHEDULE_ALL = 1000;

    /** Most dead letters one replay or purge call moves. */
    public static final int DEAD_LETTER_BATCH = 500;

    private DelayedScripts() {
    }

    private static LuaScript schedule(String name) {
        return LuaScript.join(name, "delayed-message", "delayed-schedule-message", name);
    }

    private static LuaScript readingMessages(String name) {
        return LuaScript.join(name, "delayed-message", name);
    }
}
