package io.quarkiverse.pacer.runtime.throttle.limits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The policies of one method (or of one policy of the programmatic API) as they apply to a call now: the declared
 * ones with the runtime overrides applied, and each key's own limit where a policy has a resolver. The result is a
 * {@link DecisionStack} whose script arguments carry the key's limits, so the script, the local short-circuit, the
 * in-memory fallback, the decisions and the headers all use them; {@link DecisionStack#EMPTY} when no policy applies
 * (all disabled, or unlimited for the key).
 * <p>
 * Cheap when nothing changes: without a resolver, a volatile read and a version compare; with one, a lookup of the
 * key's cached answer and one of the stack for that answer (plans are few, so their stacks are built once).
 */
public final class LiveStack {

    private static final Logger LOG = Logger.getLogger(LiveStack.class);
    /** Distinct per-key stacks kept per override version; beyond it (limits computed per key) they are rebuilt. */
    private static final int MAX_VARIANTS = 1024;

    /** The stack as the overrides of one version make it. */
    private record Snapshot(long version, ThrottlePolicy[] policies, DecisionStack stack,
            ConcurrentHashMap<Object, DecisionStack> variants) {
    }

    /** The id of a variant map entry when no policy of a keyed stack applies (all off). */
    private static final Object NONE = new Object();

    private final EffectiveLimits limits;
    private final ThrottlePolicy[] declared;
    private final int[] costs;
    /** Per declared policy: the cache of its resolver's answers, or {@code null}. */
    private final KeyLimitCache[] perKey;
    private final int keyed;
    private volatile Snapshot snapshot;

    LiveStack(EffectiveLimits limits, ThrottlePolicy[] declared, int[] costs, KeyLimitCache[] perKey) {
        this.limits = limits;
        this.declared = declared;
        this.costs = costs;
        this.perKey = perKey;
        int count = 0;
        for (KeyLimitCache cache : perKey) {
            count += cache == null ? 0 : 1;
        }
        this.keyed = count;
    }

    /**
     * The decision of a policy that does not apply to a key (unlimited for it, or switched off): allowed, with
     * {@link Long#MAX_VALUE} as limit and remaining.
     */
    public static ThrottleDecision unlimited(String policy, String key) {
        return new ThrottleDecision(true, Long.MAX_VALUE, Long.MAX_VALUE, Duration.ZERO, Duration.ZERO, policy, key);
    }

    /**
     * The stack whose Redis state a reset deletes: the key's current one (its window names the window keys), else
     * the declared policies.
     */
    public DecisionStack stateOf(DecisionStack current) {
        if (!current.isEmpty() && !current.blocked) {
            return current;
        }
        return new DecisionStack(declared, costs);
    }

    /** The stack with the runtime overrides but without per-key limits (held permits); never empty. */
    public DecisionStack unkeyed() {
        return stateOf(snapshot().stack);
    }

    /** Whether a call may need to wait for a resolver (no stack from {@link #cached} then). */
    boolean keyed() {
        return keyed > 0;
    }

    /** The declared policies, before overrides and per-key limits. */
    ThrottlePolicy[] declared() {
        return declared;
    }

    /** The stack for the key, resolving its limits on this thread, which may block. */
    public DecisionStack current(String key) {
        return stackFor(key, true);
    }

    /** The stack for the key when every limit it needs is cached, else {@code null} (use {@link #resolve}). */
    public DecisionStack cached(String key) {
        return stackFor(key, false);
    }

    private DecisionStack stackFor(String key, boolean mayBlock) {
        Snapshot now = snapshot();
        if (keyed == 0) {
            return now.stack;
        }
        Object[] answers = new Object[declared.length];
        for (int i = 0; i < declared.length; i++) {
            if (perKey[i] != null && now.policies[i] != null) {
                answers[i] = mayBlock ? perKey[i].resolveBlocking(key) : perKey[i].cached(key);
                if (answers[i] == null) {
                    return null;
                }
            }
        }
        return variant(now, answers, key);
    }

    /**
     * The stack for the key without blocking: the resolvers' {@code Uni} forms, bounded by their timeout. The item
     * arrives on the subscriber's Vert.x context when it had one (a resolver may answer on a worker thread).
     */
    public Uni<DecisionStack> resolve(String key) {
        return Uni.createFrom().deferred(() -> {
            Snapshot now = snapshot();
            Context context = Vertx.currentContext();
            Object[] answers = new Object[declared.length];
            Uni<Void> all = Uni.createFrom().voidItem();
            for (int i = 0; i < declared.length; i++) {
                if (perKey[i] != null && now.policies[i] != null) {
                    int at = i;
                    all = all.chain(() -> perKey[at].resolve(key).invoke(answer -> answers[at] = answer))
                            .replaceWithVoid();
                }
            }
            Uni<DecisionStack> stack = all.map(ignored -> variant(now, answers, key));
            return context == null ? stack : stack.emitOn(task -> context.runOnContext(ignored -> task.run()));
        });
    }

    private Snapshot snapshot() {
        Snapshot current = snapshot;
        long version = limits.overrides().version();
        if (current != null && current.version == version) {
            return current;
        }
        ThrottlePolicy[] policies = new ThrottlePolicy[declared.length];
        for (int i = 0; i < declared.length; i++) {
            policies[i] = overridden(declared[i], limits.overrides().of(declared[i].name));
        }
        Snapshot fresh = new Snapshot(version, policies, build(policies), new ConcurrentHashMap<>());
        snapshot = fresh;
        return fresh;
    }

    /** The policy with its runtime override, or {@code null} when it is off; an invalid override is ignored. */
    private ThrottlePolicy overridden(ThrottlePolicy policy, ThrottleOverride override) {
        if (override == null) {
            return policy.enabled ? policy : null;
        }
        boolean enabled = override.enabled() != null ? override.enabled() : policy.enabled;
        if (!enabled) {
            return null;
        }
        ThrottlePolicy applied = EffectiveLimits.apply(policy, override);
        String problem = fitProblem(applied);
        if (problem != null) {
            LOG.warnf("Ignoring the runtime override %s of throttling policy \"%s\": %s", override, policy.name, problem);
            return policy;
        }
        return applied;
    }

    /** The stack of the key's answers ({@link ThrottleLimit} or {@link KeyLimitCache#FAILED} per policy). */
    private DecisionStack variant(Snapshot now, Object[] answers, String key) {
        Object id = keyed == 1 ? single(answers) : Arrays.asList(answers);
        DecisionStack built = now.variants.get(id);
        if (built == null) {
            ThrottlePolicy[] policies = new ThrottlePolicy[declared.length];
            for (int i = 0; i < declared.length; i++) {
                policies[i] = answers[i] == null ? now.policies[i] : keyed(i, now.policies[i], answers[i], key);
            }
            built = build(policies);
            if (now.variants.size() < MAX_VARIANTS) {
                now.variants.putIfAbsent(id, built);
            }
        }
        return built;
    }

    private static Object single(Object[] answers) {
        for (Object answer : answers) {
            if (answer != null) {
                return answer;
            }
        }
        return NONE;
    }

    /**
     * A policy with a key's answer: each of limit, window and burst from the override if it sets it, else from the
     * answer; {@code null} when the policy does not apply to the key.
     */
    private ThrottlePolicy keyed(int index, ThrottlePolicy policy, Object answer, String key) {
        ThrottleOverride override = limits.overrides().of(policy.name);
        boolean overridesLimit = override != null && override.limit() != null;
        if (answer == KeyLimitCache.FAILED) {
            return limits.rejectOnFailure() && !policy.shadow ? policy.asBlocked() : policy;
        }
        ThrottleLimit limit = (ThrottleLimit) answer;
        if (overridesLimit) {
            return policy;
        }
        if (limit.isUnlimited()) {
            return null;
        }
        if (limit.isBlocked()) {
            return policy.shadow ? null : policy.asBlocked();
        }
        long window = override != null && override.window() != null ? policy.windowMicros
                : limit.window().map(w -> w.toNanos() / 1000).orElse(policy.windowMicros);
        int burst = override != null && override.burst() != null ? policy.declaredBurst : limit.burst();
        ThrottlePolicy keyedPolicy = policy.withLimits(limit.limit(), window, burst, policy.shadow);
        String problem = fitProblem(keyedPolicy);
        if (problem != null) {
            // Cached with the answer's stack: logged once per distinct answer and override version.
            LOG.warnf("The ThrottleLimitResolver of throttling policy \"%s\" gave key \"%s\" the limit %s, which cannot"
                    + " apply: %s; the key gets the outcome of quarkus.pacer.throttle.limits.on-failure", policy.name,
                    key, limit, problem);
            return limits.rejectOnFailure() && !policy.shadow ? policy.asBlocked() : policy;
        }
        return keyedPolicy;
    }

    /** Why a policy variant cannot serve this stack: inexact arithmetic or a cost above its capacity. */
    private String fitProblem(ThrottlePolicy policy) {
        String problem = EffectiveLimits.limitsProblem(policy);
        if (problem != null) {
            return problem;
        }
        for (int i = 0; i < declared.length; i++) {
            if (declared[i].name.equals(policy.name) && costs[i] > policy.capacity()) {
                return "the capacity " + policy.capacity() + " is below the cost " + costs[i] + " of a call";
            }
        }
        return null;
    }

    /** The stack of the policies that apply, with their costs; {@link DecisionStack#EMPTY} when none does. */
    private DecisionStack build(ThrottlePolicy[] policies) {
        List<ThrottlePolicy> applying = new ArrayList<>(policies.length);
        List<Integer> applyingCosts = new ArrayList<>(policies.length);
        for (int i = 0; i < policies.length; i++) {
            if (policies[i] != null) {
                applying.add(policies[i]);
                applyingCosts.add(costs[i]);
            }
        }
        if (applying.isEmpty()) {
            return DecisionStack.EMPTY;
        }
        return new DecisionStack(applying.toArray(new ThrottlePolicy[0]),
                applyingCosts.stream().mapToInt(Integer::intValue).toArray(), limits.blockedRetryMicros());
    }
}
