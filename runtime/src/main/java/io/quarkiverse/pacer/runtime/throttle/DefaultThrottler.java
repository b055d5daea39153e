package io.quarkiverse.pacer.runtime.throttle;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottlePermit;
import io.quarkiverse.pacer.throttle.Throttler;

/**
 * The {@link Throttler} bean: the reactive decision awaited on the caller's thread, bounded by the time budget.
 */
@Singleton
public class DefaultThrottler implements Throttler {

    private final ThrottleEngine engine;
    private final ThrottlePolicies policies;
    private final ConcurrencyLeases leases;

    DefaultThrottler(ThrottleEngine engine, ThrottlePolicies policies, ConcurrencyLeases leases) {
        this.engine = engine;
        this.policies = policies;
        this.leases = leases;
    }

    @Override
    public ThrottlePermit acquirePermit(String policy, String key) {
        return leases.acquireBlocking(policy, DefaultReactiveThrottler.encode(key));
    }

    @Override
    public ThrottleDecision acquire(String policy, String key, int cost) {
        ThrottleStack stack = policies.stackOf(policy, cost);
        ThrottleEngine.checkMayBlock("Throttler.acquire");
        return engine.decideBlocking(stack, DefaultReactiveThrottler.encode(key), ThrottleMode.ACQUIRE).decision(0);
    }

    @Override
    public ThrottleDecision peek(String policy, String key) {
        ThrottleStack stack = policies.stackOf(policy, 1);
        ThrottleEngine.checkMayBlock("Throttler.peek");
        return engine.decideBlocking(stack, DefaultReactiveThrottler.encode(key), ThrottleMode.PEEK).decision(0);
    }

    @Override
    public void reset(String policy, String key) {
        ThrottleStack stack = policies.stackOf(policy, 1);
        ThrottleEngine.checkMayBlock("Throttler.reset");
        engine.reset(stack, DefaultReactiveThrottler.encode(key)).await().atMost(engine.timeout());
    }
}
