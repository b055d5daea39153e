package io.quarkiverse.pacer.runtime.throttle;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.delay.RedisTimeoutException;
import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleMode;
import io.quarkiverse.pacer.runtime.throttle.lease.ConcurrencyLeases;
import io.quarkiverse.pacer.runtime.throttle.limits.EffectiveLimits;
import io.quarkiverse.pacer.runtime.throttle.limits.LiveStack;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.quarkiverse.pacer.throttle.ThrottlePermit;
import io.quarkiverse.pacer.throttle.Throttler;
import io.smallrye.mutiny.Uni;

/**
 * The {@link Throttler} bean: the reactive decision awaited on the caller's thread, bounded by the time budget.
 */
@Singleton
public class DefaultThrottler implements Throttler {

    /** An override is three round trips (store, re-read, announce), each bounded by the Redis client's budget. */
    private static final Duration OVERRIDE_TIMEOUT = Duration.ofSeconds(10);

    private final ThrottleEngine engine;
    private final EffectiveLimits limits;
    private final ConcurrencyLeases leases;

    DefaultThrottler(ThrottleEngine engine, EffectiveLimits limits, ConcurrencyLeases leases) {
        this.engine = engine;
        this.limits = limits;
        this.leases = leases;
    }

    @Override
    public ThrottlePermit acquirePermit(String policy, Object key) {
        return leases.acquireBlocking(policy, DefaultReactiveThrottler.encode(key));
    }

    @Override
    public ThrottleDecision acquire(String policy, Object key, int cost) {
        return decide(policy, key, cost, ThrottleMode.ACQUIRE, "Throttler.acquire");
    }

    @Override
    public ThrottleDecision peek(String policy, Object key) {
        return decide(policy, key, 1, ThrottleMode.PEEK, "Throttler.peek");
    }

    private ThrottleDecision decide(String policy, Object key, int cost, ThrottleMode mode, String what) {
        LiveStack live = limits.stackOf(policy, cost);
        ThrottleEngine.checkMayBlock(what);
        String encoded = DefaultReactiveThrottler.encode(key);
        DecisionStack stack = live.current(encoded);
        return stack.isEmpty() ? LiveStack.unlimited(policy, encoded)
                : engine.decideBlocking(stack, encoded, mode).decision(0);
    }

    @Override
    public void reset(String policy, Object key) {
        LiveStack live = limits.stackOf(policy, 1);
        ThrottleEngine.checkMayBlock("Throttler.reset");
        String encoded = DefaultReactiveThrottler.encode(key);
        await(engine.reset(live.stateOf(live.current(encoded)), encoded), engine.timeout());
    }

    @Override
    public void override(String policy, ThrottleOverride override) {
        ThrottleEngine.checkMayBlock("Throttler.override");
        await(limits.override(policy, override), OVERRIDE_TIMEOUT);
    }

    @Override
    public void clearOverride(String policy) {
        ThrottleEngine.checkMayBlock("Throttler.clearOverride");
        await(limits.clearOverride(policy), OVERRIDE_TIMEOUT);
    }

    @Override
    public Map<String, ThrottleOverride> overrides() {
        return limits.overrides().all();
    }

    /** Waits for an administrative call; the safety net is reported as the Redis timeout it is. */
    private static void await(Uni<Void> call, Duration atMost) {
        try {
            call.await().atMost(atMost);
        } catch (io.smallrye.mutiny.TimeoutException e) {
            throw new RedisTimeoutException("no answer from Redis within " + atMost.toMillis() + " ms");
        }
    }
}
