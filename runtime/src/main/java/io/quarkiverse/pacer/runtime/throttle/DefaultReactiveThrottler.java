package io.quarkiverse.pacer.runtime.throttle;

import java.util.function.Function;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleMode;
import io.quarkiverse.pacer.runtime.throttle.lease.ConcurrencyLeases;
import io.quarkiverse.pacer.runtime.throttle.limits.EffectiveLimits;
import io.quarkiverse.pacer.runtime.throttle.limits.LiveStack;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;
import io.quarkiverse.pacer.throttle.ReactiveThrottler;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.quarkiverse.pacer.throttle.ThrottlePermit;
import io.smallrye.mutiny.Uni;

/**
 * The {@link ReactiveThrottler} bean: one script call per operation, never blocking.
 */
@Singleton
public class DefaultReactiveThrottler implements ReactiveThrottler {

    private final ThrottleEngine engine;
    private final EffectiveLimits limits;
    private final ConcurrencyLeases leases;

    DefaultReactiveThrottler(ThrottleEngine engine, EffectiveLimits limits, ConcurrencyLeases leases) {
        this.engine = engine;
        this.limits = limits;
        this.leases = leases;
    }

    @Override
    public Uni<ThrottlePermit> acquirePermit(String policy, Object key) {
        return leases.acquire(policy, encode(key));
    }

    @Override
    public <T> Uni<T> withPermit(String policy, String key, Function<ThrottlePermit, Uni<T>> work) {
        return acquirePermit(policy, (Object) key).onItem().transformToUni(permit -> {
            Uni<T> result;
            try {
                result = work.apply(permit);
            } catch (RuntimeException e) {
                permit.close();
                return Uni.createFrom().failure(e);
            }
            return result.onTermination().invoke(permit::close);
        });
    }

    @Override
    public Uni<ThrottleDecision> acquire(String policy, Object key, int cost) {
        return decide(policy, key, cost, ThrottleMode.ACQUIRE);
    }

    @Override
    public Uni<ThrottleDecision> peek(String policy, Object key) {
        return decide(policy, key, 1, ThrottleMode.PEEK);
    }

    private Uni<ThrottleDecision> decide(String policy, Object key, int cost, ThrottleMode mode) {
        return Uni.createFrom().deferred(() -> {
            String encoded = encode(key);
            return stack(limits.stackOf(policy, cost), encoded).chain(stack -> stack.isEmpty()
                    ? Uni.createFrom().item(LiveStack.unlimited(policy, encoded))
                    : engine.decide(stack, encoded, mode).map(outcome -> outcome.decision(0)));
        });
    }

    @Override
    public Uni<Void> reset(String policy, Object key) {
        return Uni.createFrom().deferred(() -> {
            String encoded = encode(key);
            LiveStack live = limits.stackOf(policy, 1);
            return stack(live, encoded).chain(stack -> engine.reset(live.stateOf(stack), encoded));
        });
    }

    @Override
    public Uni<Void> override(String policy, ThrottleOverride override) {
        return Uni.createFrom().deferred(() -> limits.override(policy, override));
    }

    @Override
    public Uni<Void> clearOverride(String policy) {
        return Uni.createFrom().deferred(() -> limits.clearOverride(policy));
    }

    /** The key's stack: at once when its limits are cached, else resolved without blocking. */
    private static Uni<DecisionStack> stack(LiveStack live, String key) {
        DecisionStack cached = live.cached(key);
        return cached != null ? Uni.createFrom().item(cached) : live.resolve(key);
    }

    static String encode(Object key) {
        return ThrottleKeyBuilder.ofProgrammatic(key);
    }
}
