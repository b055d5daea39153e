package io.quarkiverse.pacer.runtime.throttle;

import java.util.List;

import io.quarkiverse.pacer.runtime.redis.Batchable;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * One decision (acquire or peek) that may be decided in one script call with others queued behind it on the same
 * connection: the batch script (throttle-batch.lua) decides them one after the other, with the outcomes they would
 * have had one by one. Decisions batch together when they use the same script and, on Redis Cluster, the same slot.
 */
final class ThrottleBatchPart implements Batchable {

    private final Group group;
    private final List<String> keys;
    private final List<String> args;

    /** The script and slot a batch shares. */
    private record Group(LuaScript script, int slot) {
    }

    ThrottleBatchPart(LuaScript batchScript, int slot, List<String> keys, List<String> args) {
        this.group = new Group(batchScript, slot);
        this.keys = keys;
        this.args = args;
    }

    @Override
    public Object group() {
        return group;
    }

    @Override
    public Request batch(List<Batchable> parts, boolean source) {
        int keyCount = 0;
        for (Batchable part : parts) {
            keyCount += ((ThrottleBatchPart) part).keys.size();
        }
        LuaScript script = group.script();
        Request request = Request.cmd(source ? Command.EVAL : Command.EVALSHA)
                .arg(source ? script.source() : script.sha1()).arg(keyCount);
        for (Batchable part : parts) {
            for (String key : ((ThrottleBatchPart) part).keys) {
                request.arg(key);
            }
        }
        // ARGV: the number of calls; per call its number of policies, then its one-call ARGV (mode, token, policies).
        request.arg(parts.size());
        for (Batchable part : parts) {
            ThrottleBatchPart decision = (ThrottleBatchPart) part;
            request.arg(decision.keys.size());
            for (int i = 0; i < decision.args.size(); i++) {
                request.arg(decision.args.get(i));
            }
        }
        return request;
    }
}
