package io.quarkiverse.pacer.runtime.throttle.engine;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

import io.quarkiverse.pacer.runtime.redis.EncodedArgs;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * The acquire of a call against one policy, sent as that algorithm's single-policy script
 * (throttle-single-policy-prelude.lua): the same outcome and the same stored state as the general script, without its
 * driver, and with a reply of one number (or, for a rejected {@code SLIDING_LOG}, one string) from which
 * {@link #values} forms what the general script returns. Sent alone, or, queued behind other such calls, in the
 * algorithm's single-policy batch script ({@link SinglePolicyBatchPart}), which replies the same value per call. On a
 * Redis Cluster whose batches span slots, a queued call goes in the general batch script instead, so
 * {@link ThrottleEngine} reads either reply (an array is the general one).
 */
final class SinglePolicyCall {

    final LuaScript script;
    /** The script deciding a batch of such calls (throttle-single-policy-batch.lua). */
    final LuaScript batchScript;
    private final ThrottlePolicy policy;
    private final int cost;
    /** The script's ARGV; for {@code SLIDING_LOG} the last one is the call's token. */
    private final String[] args;
    /** The same as a list, for the algorithms that take no token: sent as it is. */
    private final List<String> fixedArgs;

    private SinglePolicyCall(Algorithm algorithm, ThrottlePolicy policy, int cost, String[] args) {
        this.script = ThrottleScripts.singlePolicy(algorithm);
        this.batchScript = ThrottleScripts.singlePolicyBatch(algorithm);
        this.policy = policy;
        this.cost = cost;
        this.args = args;
        // Encoded once: sent alone or in a batch, a call's values are not encoded again.
        this.fixedArgs = args[args.length - 1] == null ? null : EncodedArgs.of(args);
    }

    /** The call for a stack of exactly one policy whose algorithm has a single-policy script, else {@code null}. */
    static SinglePolicyCall of(ThrottlePolicy[] policies, int[] costs) {
        if (policies.length != 1 || policies[0].blocked) {
            return null;
        }
        ThrottlePolicy policy = policies[0];
        String cost = Integer.toString(costs[0]);
        String[] args = switch (policy.algorithm) {
            case TOKEN_BUCKET -> new String[] { policy.limitArg, policy.windowArg, policy.burstArg, cost };
            case SLIDING_LOG -> new String[] { policy.limitArg, policy.windowArg, cost, null };
            default -> null;
        };
        return args == null ? null : new SinglePolicyCall(policy.algorithm, policy, costs[0], args);
    }

    /** The script's ARGV for a call with this token ({@code null} when the algorithm needs none). */
    List<String> args(String token) {
        return fixedArgs != null ? fixedArgs : new WithToken(args, token);
    }

    /** The call as a part of a batch of such calls in {@code slot} (0 when requests are not routed by slot). */
    SinglePolicyBatchPart batchPart(int slot, String key, List<String> args) {
        return new SinglePolicyBatchPart(batchScript, slot, key, args);
    }

    /** Whether the call may proceed: its policy admitted it, or only watches ({@code shadow}), as the general script. */
    boolean allowed(long[] values) {
        return values[0] == 1 || policy.shadow;
    }

    /**
     * The policy's allowed (1|0), remaining, retry-after and reset-after in µs, as the general script returns them,
     * from this script's reply.
     */
    long[] values(Response response) {
        return policy.algorithm == Algorithm.TOKEN_BUCKET ? tokenBucket(response.toLong())
                : slidingLog(response);
    }

    /** From the level in 1/window tokens: after the cost when admitted, else -1 - the level as it is. */
    private long[] tokenBucket(long reply) {
        long window = policy.windowMicros;
        long capacity = policy.burst * window;
        boolean ok = reply >= 0;
        long level = ok ? reply : -1 - reply;
        return new long[] { ok ? 1 : 0, level / window, ok ? 0 : ceilDiv(cost * window - level, policy.limit),
                ceilDiv(capacity - level, policy.limit) };
    }

    /** From the live entries when admitted, else the string "live retry-after reset-after". */
    private long[] slidingLog(Response response) {
        if (response.type() == ResponseType.NUMBER) {
            return new long[] { 1, policy.limit - response.toLong() - cost, 0, policy.windowMicros };
        }
        String[] parts = response.toString().split(" ");
        long live = Long.parseLong(parts[0]);
        return new long[] { 0, Math.max(0, policy.limit - live), Long.parseLong(parts[1]), Long.parseLong(parts[2]) };
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    /** The precomputed ARGV with this call's token last, without copying the array. */
    private static final class WithToken extends AbstractList<String> implements RandomAccess {
        private final String[] args;
        private final String token;

        WithToken(String[] args, String token) {
            this.args = args;
            this.token = token;
        }

        @Override
        public String get(int index) {
            return index == args.length - 1 ? token : args[index];
        }

        @Override
        public int size() {
            return args.length;
        }
    }
}
