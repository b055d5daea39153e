package io.quarkiverse.pacer.runtime.throttle.lease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.config.ThrottleRuntimeConfig.PolicyConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleMode;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;
import io.quarkiverse.pacer.runtime.throttle.limits.EffectiveLimits;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottlePermit;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;

/**
 * The {@code CONCURRENCY} leases a caller holds: renews them while held (see {@link Lease}), and remembers which
 * (policy, key) pairs the current thread or reactive call chain (its Vert.x duplicated context) already holds, so a
 * reentrant call of a reentrant policy does not take a second permit.
 * <p>
 * A policy is reentrant when {@code quarkus.pacer.throttle."<policy>".reentrant} says so, by default when it is a
 * {@code CONCURRENCY} policy with limit 1 (a lock, where a second permit could only deadlock).
 */
@Singleton
public class ConcurrencyLeases {

    /** The key of the held-permit map in a duplicated context's local data. */
    private static final Object CONTEXT_KEY = new Object();

    private static final ThreadLocal<Scope> THREAD_SCOPE = ThreadLocal.withInitial(Scope::new);

    private final ThrottleEngine engine;
    private final EffectiveLimits limits;
    private final PacerRedis redis;
    private final Vertx vertx;
    private final PacerConfig config;
    private final ConcurrentHashMap<String, Boolean> reentrant = new ConcurrentHashMap<>();

    ConcurrencyLeases(ThrottleEngine engine, EffectiveLimits limits, PacerRedis redis, Vertx vertx,
            PacerConfig config) {
        this.engine = engine;
        this.limits = limits;
        this.redis = redis;
        this.vertx = vertx;
        this.config = config;
    }

    /** The (policy, key) pairs one thread or one duplicated context holds, with the fencing token of each. */
    public static final class Scope {
        final ConcurrentMap<String, Mark> marks = new ConcurrentHashMap<>();

        void mark(String id, long fencingToken) {
            marks.compute(id, (k, mark) -> mark == null ? new Mark(fencingToken) : mark.enter());
        }

        void unmark(String id) {
            marks.computeIfPresent(id, (k, mark) -> mark.leave());
        }
    }

    /** How often a pair is held in one scope (nested reentrant calls), and the fencing token of the outermost. */
    record Mark(long fencingToken, int depth) {
        Mark(long fencingToken) {
            this(fencingToken, 1);
        }

        Mark enter() {
            return new Mark(fencingToken, depth + 1);
        }

        Mark leave() {
            return depth == 1 ? null : new Mark(fencingToken, depth - 1);
        }
    }

    static String id(ThrottlePolicy policy, String key) {
        return policy.name + '\u0000' + key;
    }

    /** The scope of the current thread. */
    public Scope threadScope() {
        return THREAD_SCOPE.get();
    }

    /** The scope of the current reactive call chain: its duplicated context's, or {@code null} outside one. */
    public static Scope contextScope() {
        Context context = Vertx.currentContext();
        if (context instanceof ContextInternal internal && VertxContext.isDuplicatedContext(context)) {
            return (Scope) internal.localContextData().computeIfAbsent(CONTEXT_KEY, k -> new Scope());
        }
        return null;
    }

    /** The mark of a pair held by the current thread or call chain, or {@code null}. */
    private Mark heldMark(String id) {
        Mark mark = THREAD_SCOPE.get().marks.get(id);
        if (mark == null) {
            Scope context = contextScope();
            if (context != null) {
                mark = context.marks.get(id);
            }
        }
        return mark;
    }

    /** Whether calls already holding a permit of the policy enter again without a second one. */
    boolean reentrant(ThrottlePolicy policy) {
        if (policy.algorithm != Algorithm.CONCURRENCY) {
            return false;
        }
        return reentrant.computeIfAbsent(policy.name, name -> {
            PolicyConfig override = config.throttle().policies().get(name);
            return override != null && override.reentrant().isPresent() ? override.reentrant().get()
                    : policy.limit == 1;
        });
    }

    /**
     * The fencing token of the permit the current thread or call chain already holds of {@code policy} for
     * {@code key}, when the policy is reentrant; {@code -1} otherwise.
     */
    long reentrantToken(ThrottlePolicy policy, String key) {
        if (!reentrant(policy)) {
            return -1;
        }
        Mark mark = heldMark(id(policy, key));
        return mark == null ? -1 : mark.fencingToken();
    }

    /**
     * The policies of the stack still to decide for this caller: the stack itself when it holds none of them
     * reentrantly, {@code null} when it holds all of them (nothing to decide), else a stack of the others.
     */
    public DecisionStack unheld(DecisionStack stack, String key) {
        List<ThrottlePolicy> rest = null;
        List<Integer> costs = null;
        for (int i = 0; i < stack.policies.length; i++) {
            ThrottlePolicy policy = stack.policies[i];
            if (reentrantToken(policy, key) >= 0) {
                if (rest == null) {
                    rest = new ArrayList<>();
                    costs = new ArrayList<>();
                    for (int j = 0; j < i; j++) {
                        rest.add(stack.policies[j]);
                        costs.add(stack.costs[j]);
                    }
                }
            } else if (rest != null) {
                rest.add(policy);
                costs.add(stack.costs[i]);
            }
        }
        if (rest == null) {
            return stack;
        }
        if (rest.isEmpty()) {
            return null;
        }
        return new DecisionStack(rest.toArray(new ThrottlePolicy[0]), costs.stream().mapToInt(Integer::intValue).toArray(),
                stack.blockedRetryMicros);
    }

    /**
     * Starts holding the leases of a permitted decision: marks them in {@code scope} (may be {@code null}) and renews
     * them every third of the shortest window until {@link Lease#close()}.
     */
    public Lease hold(ThrottleOutcome outcome, Scope scope) {
        Lease lease = new Lease(this, outcome, scope);
        lease.start();
        return lease;
    }

    /** Takes a permit for the blocking API; the current thread holds it (for reentrancy) until it is closed. */
    public ThrottlePermit acquireBlocking(String policyName, String key) {
        DecisionStack stack = permitStack(policyName);
        ThrottleEngine.checkMayBlock("Throttler.acquirePermit");
        ThrottlePermit reentrantPermit = reentrantPermit(stack, key);
        if (reentrantPermit != null) {
            return reentrantPermit;
        }
        ThrottleOutcome outcome = engine.decideBlocking(stack, key, ThrottleMode.ACQUIRE);
        if (!outcome.allowed()) {
            throw outcome.exception();
        }
        return LeasePermit.held(hold(outcome, threadScope()));
    }

    /** Takes a permit for the reactive API; the subscriber's call chain holds it (for reentrancy) until closed. */
    public Uni<ThrottlePermit> acquire(String policyName, String key) {
        return Uni.createFrom().deferred(() -> {
            DecisionStack stack = permitStack(policyName);
            ThrottlePermit reentrantPermit = reentrantPermit(stack, key);
            if (reentrantPermit != null) {
                return Uni.createFrom().item(reentrantPermit);
            }
            Scope scope = contextScope();
            return engine.decide(stack, key, ThrottleMode.ACQUIRE).onItem().transformToUni(outcome -> outcome.allowed()
                    ? Uni.createFrom().item(LeasePermit.held(hold(outcome, scope)))
                    : Uni.createFrom().failure(outcome.exception()));
        });
    }

    private DecisionStack permitStack(String policyName) {
        // The runtime override applies; per-key limits apply to @Throttled calls, acquire() and peek().
        DecisionStack stack = limits.stackOf(policyName, 1).unkeyed();
        if (!stack.holdsLeases) {
            throw new IllegalArgumentException("Throttling policy \"" + policyName + "\" uses "
                    + stack.policies[0].algorithm + ": only CONCURRENCY policies hand out permits to hold and release;"
                    + " use acquire() for the others, or set @Throttled(algorithm = Algorithm.CONCURRENCY)");
        }
        return stack;
    }

    private ThrottlePermit reentrantPermit(DecisionStack stack, String key) {
        ThrottlePolicy policy = stack.policies[0];
        long fence = reentrantToken(policy, key);
        if (fence < 0) {
            return null;
        }
        return LeasePermit.reentrant(new ThrottleDecision(true, policy.limit, 0, Duration.ZERO,
                Duration.ofNanos(policy.windowMicros * 1000), policy.name, key), fence);
    }

    ThrottleEngine engine() {
        return engine;
    }

    PacerRedis redis() {
        return redis;
    }

    Vertx vertx() {
        return vertx;
    }
}
