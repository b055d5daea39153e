package io.quarkiverse.pacer.runtime.throttle.engine;

import java.util.List;

import io.quarkiverse.pacer.runtime.redis.Batchable;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.types.ErrorType;

/**
 * One decision (acquire or peek) that may be decided in one script call with others queued behind it on the same
 * connection: the batch script (throttle-batch.lua) decides them one after the other, with the outcomes they would
 * have had one by one. Decisions batch together when they use the same script and, on Redis Cluster, the same slot;
 * on a Redis Cluster of Redis 7 or later, any slot of the connection's master (throttle-batch-cross-slot.lua, with the
 * key names in ARGV since Redis Cluster accepts KEYS of one slot only).
 */
final class ThrottleBatchPart implements Batchable {

    private final Group group;
    private final List<String> keys;
    private final List<String> args;
    private final boolean crossSlot;

    /** The script and slot a batch shares (also of {@link SinglePolicyBatchPart}). */
    record Group(LuaScript script, int slot) {
    }

    /** A part of batches within one slot ({@code slot}; 0 when requests are not routed by slot). */
    static ThrottleBatchPart inSlot(DecisionStack stack, int slot, List<String> keys, List<String> args) {
        return new ThrottleBatchPart(new Group(stack.batchScript, slot), keys, args, false);
    }

    /** A part of batches over every slot of the master the connection leads to (Redis Cluster, Redis 7 or later). */
    static ThrottleBatchPart crossSlot(DecisionStack stack, List<String> keys, List<String> args) {
        return new ThrottleBatchPart(new Group(stack.crossSlotBatchScript, -1), keys, args, true);
    }

    private ThrottleBatchPart(Group group, List<String> keys, List<String> args, boolean crossSlot) {
        this.group = group;
        this.keys = keys;
        this.args = args;
        this.crossSlot = crossSlot;
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
        LuaScript script = group.script().toSend();
        Request request = script.command(source);
        if (crossSlot) {
            // No KEYS: ARGV holds the number of calls, the number of keys and the keys, then the calls.
            request.arg(0).arg(parts.size()).arg(keyCount);
        } else {
            request.arg(keyCount);
        }
        for (Batchable part : parts) {
            for (String key : ((ThrottleBatchPart) part).keys) {
                request.arg(key);
            }
        }
        if (!crossSlot) {
            request.arg(parts.size());
        }
        // Per call: its number of policies, then its one-call ARGV (mode, token, 6 values per policy).
        for (Batchable part : parts) {
            ThrottleBatchPart decision = (ThrottleBatchPart) part;
            request.arg(decision.keys.size());
            for (int i = 0; i < decision.args.size(); i++) {
                request.arg(decision.args.get(i));
            }
        }
        return script.appendClockArgument(request);
    }

    @Override
    public Response part(Response response, int index) {
        Response answer = response.get(index);
        if (crossSlot && answer instanceof ErrorType error && error.getMessage() != null
                && error.getMessage().contains("non local key")) {
            // The slot moved to another master since the slot map was read: the router reads the map again and
            // sends the decision to the slot's master, as for TRYAGAIN.
            return ErrorType.create("TRYAGAIN " + error.getMessage());
        }
        return answer;
    }
}
