package io.quarkiverse.pacer.runtime.throttle.engine;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleScripts.Entry;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * The enabled policies one call is checked against (one for the programmatic API, several for stacked annotations),
 * with the script's {@code ARGV} precomputed per mode: a decision only fills in the call token.
 */
public final class DecisionStack {

    private static final String NO_TOKEN = "-";

    /** No policy applies to the call (all switched off, or unlimited for its key): nothing to decide. */
    public static final DecisionStack EMPTY = new DecisionStack(new ThrottlePolicy[0], new int[0]);

    public final ThrottlePolicy[] policies;
    public final int[] costs;
    final boolean needsToken;
    public final boolean holdsLeases;
    /** The script with only the algorithms of these policies. */
    public final LuaScript script;
    /** The same, deciding a batch of calls (see {@link ThrottleBatchPart}). */
    final LuaScript batchScript;
    /** The same, deciding a batch of calls over several slots of one Redis Cluster master (Redis 7 or later). */
    final LuaScript crossSlotBatchScript;
    /** An acquire against the one policy of this stack by its algorithm's single-policy script, or {@code null}. */
    final SinglePolicyCall single;
    private final String[][] argsByMode = new String[ThrottleMode.values().length][];
    private final List<String> globalKeys;
    /** Whether an enforcing policy blocks the call's key outright: rejected without asking Redis. */
    public final boolean blocked;
    /** The retry-after of a blocked key's rejection: until its limit is asked again. */
    public final long blockedRetryMicros;

    public DecisionStack(ThrottlePolicy[] policies, int[] costs) {
        this(policies, costs, 0);
    }

    public DecisionStack(ThrottlePolicy[] policies, int[] costs, long blockedRetryMicros) {
        this.policies = policies;
        this.costs = costs;
        this.blockedRetryMicros = blockedRetryMicros;
        boolean anyBlocked = false;
        for (ThrottlePolicy policy : policies) {
            anyBlocked |= policy.blocked && !policy.shadow;
        }
        this.blocked = anyBlocked;
        boolean token = false;
        boolean leases = false;
        for (ThrottlePolicy policy : policies) {
            token |= policy.algorithm == Algorithm.SLIDING_LOG || policy.algorithm == Algorithm.CONCURRENCY;
            leases |= policy.algorithm == Algorithm.CONCURRENCY;
        }
        this.needsToken = token;
        this.holdsLeases = leases;
        this.script = policies.length == 0 ? null : ThrottleScripts.forPolicies(policies, Entry.SINGLE);
        this.batchScript = policies.length == 0 ? null : ThrottleScripts.forPolicies(policies, Entry.BATCH);
        this.crossSlotBatchScript = policies.length == 0 ? null
                : ThrottleScripts.forPolicies(policies, Entry.BATCH_CROSS_SLOT);
        this.single = SinglePolicyCall.of(policies, costs);
        for (ThrottleMode mode : ThrottleMode.values()) {
            String[] args = new String[2 + 6 * policies.length];
            args[0] = mode.arg;
            args[1] = NO_TOKEN;
            for (int i = 0; i < policies.length; i++) {
                ThrottlePolicy policy = policies[i];
                int at = 2 + 6 * i;
                args[at] = policy.algorithmArg;
                args[at + 1] = policy.limitArg;
                args[at + 2] = policy.windowArg;
                args[at + 3] = policy.burstArg;
                args[at + 4] = Integer.toString(mode == ThrottleMode.PEEK ? 1 : costs[i]);
                args[at + 5] = policy.shadowArg;
            }
            argsByMode[mode.ordinal()] = args;
        }
        String[] keys = new String[policies.length];
        for (int i = 0; i < policies.length; i++) {
            keys[i] = policies[i].globalKey;
        }
        this.globalKeys = List.of(keys);
    }

    public List<String> keys(String encodedKey) {
        if (encodedKey.isEmpty()) {
            return globalKeys;
        }
        if (policies.length == 1) {
            return List.of(policies[0].redisKey(encodedKey));
        }
        // One tag for all: every policy of the call lands in the slot of the call's key.
        String tag = ThrottleKeyLayout.tag(encodedKey);
        String[] keys = new String[policies.length];
        for (int i = 0; i < policies.length; i++) {
            keys[i] = policies[i].redisKeyOfTag(tag);
        }
        return Arrays.asList(keys);
    }

    /** Whether no policy applies: the call proceeds undecided. */
    public boolean isEmpty() {
        return policies.length == 0;
    }

    public List<String> args(ThrottleMode mode, String token) {
        return new Args(argsByMode[mode.ordinal()], token == null ? NO_TOKEN : token);
    }

    /** The precomputed ARGV with this call's token in place, without copying the array. */
    private static final class Args extends AbstractList<String> implements RandomAccess {
        private final String[] args;
        private final String token;

        Args(String[] args, String token) {
            this.args = args;
            this.token = token;
        }

        @Override
        public String get(int index) {
            return index == 1 ? token : args[index];
        }

        @Override
        public int size() {
            return args.length;
        }
    }
}
