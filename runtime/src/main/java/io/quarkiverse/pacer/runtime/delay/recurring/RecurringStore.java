package io.quarkiverse.pacer.runtime.delay.recurring;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/** The Redis side of the recurring schedules: one method per {@code recurring-*.lua} script, over {@link RecurringKeys}. */
final class RecurringStore {

    private static final LuaScript TIME = LuaScript.load("server-time");
    private static final LuaScript UPSERT = LuaScript.load("recurring-upsert");
    private static final LuaScript PAUSE = LuaScript.load("recurring-pause");
    private static final LuaScript DELETE = LuaScript.load("recurring-delete");
    private static final LuaScript GET = LuaScript.load("recurring-get");
    private static final LuaScript LIST = LuaScript.load("recurring-list");
    private static final LuaScript READ = LuaScript.load("recurring-read");
    private static final LuaScript FIRE = LuaScript.load("recurring-fire");
    private static final LuaScript REDO = LuaScript.load("recurring-redo");
    private static final LuaScript DONE = LuaScript.load("recurring-done");

    /** What an upsert came to. */
    record Upserted(boolean started, long next, boolean paused) {
    }

    /** A stored schedule: its definition (text), next fire time and pause flag. */
    record Stored(String id, String definition, long next, boolean paused) {
    }

    /** A schedule whose next fire time is due, as read. */
    record Due(String id, long next, String definition) {
    }

    /** A fired tick whose lease expired, with its schedule's definition ({@code null} once deleted). */
    record Expired(String member, String definition) {
    }

    /** What a firing instance has to do ({@code recurring-read.lua}); {@code -1} for no earliest time. */
    record Work(long now, List<Due> due, List<Expired> expired, long earliestNext, long earliestLease) {
    }

    /** A schedule to move on: fire {@code tick} ({@code null} for none) and move the next fire time to {@code newNext}. */
    record Move(String id, long next, String spec, long newNext, Long tick) {
    }

    /**
     * What {@link #fire} came to: the Redis time of the compare-and-set and, per move in order, the schedule's
     * definition when this instance moved it (its tick, if any, is pending as {@link #member}{@code (tick, 1, id)} and
     * is this instance's to store), else {@code null}.
     */
    record Fired(long now, List<String> definitions) {
    }

    /** A schedule read by {@link #get}, and the Redis time it was read at. */
    record Found(long now, Stored stored) {
    }

    /** How taking over an expired tick came out (recurring-redo.lua), in the order of the script's outcome codes. */
    enum Redo {
        LOST,
        TAKEN,
        DELETED,
        DROPPED
    }

    record Redone(Redo outcome, String definition, String member) {
    }

    /** A page of {@code recurring-list.lua}. */
    record Page(String cursor, List<Stored> schedules) {
    }

    private final PacerRedis redis;
    private final RecurringKeys keys;

    RecurringStore(PacerRedis redis, String keyPrefix) {
        this.redis = redis;
        this.keys = new RecurringKeys(keyPrefix);
    }

    RecurringKeys keys() {
        return keys;
    }

    /** The Redis server's clock, in epoch millis. */
    Uni<Long> now() {
        return redis.eval(TIME, List.of(), List.of()).map(reply -> reply.toLong() / 1000);
    }

    Uni<Upserted> upsert(String id, String spec, String definition, long firstNext) {
        return redis.eval(UPSERT, keys.all, List.of(id, spec, definition, Long.toString(firstNext), keys.wakeChannel))
                .map(reply -> new Upserted(reply.get(0).toInteger() == 1, reply.get(1).toLong(),
                        reply.get(2).toInteger() == 1));
    }

    /** @return {@code false} when there is no such schedule */
    Uni<Boolean> pause(String id, boolean paused) {
        return redis.eval(PAUSE, keys.all, List.of(id, paused ? "1" : "0", keys.wakeChannel))
                .map(reply -> reply.toInteger() == 1);
    }

    /** @return {@code false} when there was no such schedule */
    Uni<Boolean> delete(String id) {
        return redis.eval(DELETE, keys.all, List.of(id)).map(reply -> reply.toInteger() == 1);
    }

    /** The schedule ({@code null} when there is none), and the Redis time it was read at. */
    Uni<Found> get(String id) {
        return redis.eval(GET, keys.all, List.of(id)).map(reply -> {
            String definition = text(reply.get(1));
            return new Found(reply.get(0).toLong(), definition == null ? null
                    : new Stored(id, definition, reply.get(2).toLong(), reply.get(3).toInteger() == 1));
        });
    }

    Uni<Page> list(String cursor, int count) {
        return redis.eval(LIST, keys.all, List.of(cursor, Integer.toString(count))).map(reply -> {
            Response entries = reply.get(1);
            List<Stored> page = new ArrayList<>(entries.size() / 4);
            for (int i = 0; i + 3 < entries.size(); i += 4) {
                page.add(new Stored(entries.get(i).toString(), entries.get(i + 1).toString(),
                        entries.get(i + 2).toLong(), entries.get(i + 3).toInteger() == 1));
            }
            return new Page(reply.get(0).toString(), page);
        });
    }

    Uni<Work> read(int limit) {
        return redis.eval(READ, keys.all, List.of(Integer.toString(limit))).map(reply -> {
            Response due = reply.get(1);
            List<Due> dueList = new ArrayList<>(due.size() / 3);
            for (int i = 0; i + 2 < due.size(); i += 3) {
                dueList.add(new Due(due.get(i).toString(), due.get(i + 1).toLong(), text(due.get(i + 2))));
            }
            Response expired = reply.get(2);
            List<Expired> expiredList = new ArrayList<>(expired.size() / 2);
            for (int i = 0; i + 1 < expired.size(); i += 2) {
                expiredList.add(new Expired(expired.get(i).toString(), text(expired.get(i + 1))));
            }
            return new Work(reply.get(0).toLong(), dueList, expiredList, reply.get(3).toLong(), reply.get(4).toLong());
        });
    }

    Uni<Fired> fire(List<Move> moves, long leaseMillis) {
        List<String> args = new ArrayList<>(1 + 5 * moves.size());
        args.add(Long.toString(leaseMillis));
        for (Move move : moves) {
            args.add(move.id());
            args.add(Long.toString(move.next()));
            args.add(move.spec());
            args.add(Long.toString(move.newNext()));
            args.add(move.tick() == null ? "" : move.tick().toString());
        }
        return redis.eval(FIRE, keys.all, args).map(reply -> {
            Response results = reply.get(1);
            List<String> definitions = new ArrayList<>(moves.size());
            for (int i = 0; i + 1 < results.size(); i += 2) {
                definitions.add(results.get(i).toInteger() == 1 ? results.get(i + 1).toString() : null);
            }
            return new Fired(reply.get(0).toLong(), definitions);
        });
    }

    Uni<List<Redone>> redo(List<String> members, long leaseMillis, int maxStarts) {
        List<String> args = new ArrayList<>(2 + members.size());
        args.add(Long.toString(leaseMillis));
        args.add(Integer.toString(maxStarts));
        args.addAll(members);
        return redis.eval(REDO, keys.all, args).map(reply -> {
            List<Redone> redone = new ArrayList<>(members.size());
            for (int i = 0; i + 2 < reply.size(); i += 3) {
                redone.add(new Redone(Redo.values()[reply.get(i).toInteger()], reply.get(i + 1).toString(),
                        reply.get(i + 2).toString()));
            }
            return redone;
        });
    }

    /** Clears the pending entries of stored ticks, at most {@link RecurringFirer#BATCH} at once. */
    Uni<Void> done(List<String> members) {
        return redis.eval(DONE, keys.all, members).replaceWithVoid();
    }

    /** A fired tick's member in the pending set: {@code <tick>:<start>:<id>}. */
    static String member(long tick, int start, String id) {
        return tick + ":" + start + ":" + id;
    }

    /** The tick of a pending member. */
    static long tick(String member) {
        return Long.parseLong(member, 0, member.indexOf(':'), 10);
    }

    /** The schedule id of a pending member. */
    static String id(String member) {
        return member.substring(member.indexOf(':', member.indexOf(':') + 1) + 1);
    }

    private static String text(Response response) {
        return response == null ? null : response.toString();
    }
}
