package io.quarkiverse.pacer.runtime.delay.producer;

import java.util.List;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.redis.Batchable;
import io.quarkiverse.pacer.runtime.redis.EncodedArgs;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.vertx.redis.client.Request;

/**
 * One {@code schedule} call that may be stored in one script run with the other calls of its shard queued behind it on
 * the same connection (delayed-schedule-batch.lua), each with its own result or error.
 */
public final class ScheduleBatchPart implements Batchable {

    private final DelayedKeys keys;
    private final EncodedArgs args;

    /** @param args the ARGV of delayed-schedule.lua for this call, encoded once for a lone call and a batch alike */
    ScheduleBatchPart(DelayedKeys keys, EncodedArgs args) {
        this.keys = keys;
        this.args = args;
    }

    @Override
    public Object group() {
        // The shard: its keys share one hash tag, so one slot on Redis Cluster.
        return keys.all.get(0);
    }

    @Override
    public LuaScript batchScript() {
        return DelayedScripts.SCHEDULE_BATCH.toSend();
    }

    @Override
    public Request batch(List<Batchable> parts, boolean source) {
        LuaScript script = DelayedScripts.SCHEDULE_BATCH.toSend();
        Request request = script.command(source).arg(keys.all.size());
        EncodedArgs.append(request, keys.all);
        request.arg(parts.size());
        for (Batchable part : parts) {
            ((ScheduleBatchPart) part).args.appendTo(request);
        }
        return script.appendClockArgument(request);
    }
}
