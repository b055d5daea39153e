package io.quarkiverse.pacer.runtime.throttle.engine;

import java.util.List;

import io.quarkiverse.pacer.runtime.redis.Batchable;
import io.quarkiverse.pacer.runtime.redis.EncodedArgs;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.vertx.redis.client.Request;

/**
 * An acquire against one policy ({@link SinglePolicyCall}) that may be decided in one script call with others queued
 * behind it on the same connection: the single-policy batch script of its algorithm (throttle-single-policy-batch.lua)
 * decides them one after the other, with the outcomes they would have had one by one, each with its own one-value
 * reply. Acquires batch together when they use the same algorithm and, on Redis Cluster, the same slot.
 */
final class SinglePolicyBatchPart implements Batchable {

    private final ThrottleBatchPart.Group group;
    private final String key;
    private final List<String> args;

    /** {@code args}: the call's 4 values, as its one-call script takes them. */
    SinglePolicyBatchPart(LuaScript batchScript, int slot, String key, List<String> args) {
        this.group = new ThrottleBatchPart.Group(batchScript, slot);
        this.key = key;
        this.args = args;
    }

    @Override
    public Object group() {
        return group;
    }

    @Override
    public Request batch(List<Batchable> parts, boolean source) {
        LuaScript script = group.script().toSend();
        Request request = script.command(source).arg(parts.size());
        for (Batchable part : parts) {
            request.arg(((SinglePolicyBatchPart) part).key);
        }
        for (Batchable part : parts) {
            EncodedArgs.append(request, ((SinglePolicyBatchPart) part).args);
        }
        return script.appendClockArgument(request);
    }
}
