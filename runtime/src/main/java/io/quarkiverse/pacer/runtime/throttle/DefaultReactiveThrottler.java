package io.quarkiverse.pacer.runtime.throttle;

import java.util.function.Function;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.throttle.ReactiveThrottler;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottlePermit;
import io.smallrye.mutiny.Uni;

/**
 * The {@link ReactiveThrottler} bean: one script call per operation, never blocking.
 */
@Singleton
public class DefaultReactiveThrottler implements ReactiveThrottler {

    private final ThrottleEngine engine;
    private final ThrottlePolicies policies;
    private final ConcurrencyLeases leases;

    DefaultReactiveThrottler(ThrottleEngine engine, ThrottlePolicies policies, ConcurrencyLeases leases) {
        this.engine = engine;
        this.policies = policies;
        this.leases = leases;
    }

    @Override
    public Uni<ThrottlePermit> acquirePermit(String policy, String key) {
        return leases.acquire(policy, encode(key));
    }

    @Override
    public <T> Uni<T> withPermit(String policy, String key, Function<ThrottlePermit, Uni<T>> work) {
        return acquirePermit(policy, key).onItem().transformToUni(permit -> {
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
    public Uni<ThrottleDecision> acquire(String policy, String key, int cost) {
        return Uni.createFrom().deferred(() -> engine.decide(policies.stackOf(policy, cost), encode(key),
                ThrottleMode.ACQUIRE)).map(outcome -> outcome.decision(0));
    }

    @Override
    public Uni<ThrottleDecision> peek(String policy, String key) {
        return Uni.createFrom().deferred(() -> engine.decide(policies.stackOf(policy, 1), encode(key),
                ThrottleMode.PEEK)).map(outcome -> outcome.decision(0));
    }

    @Override
    public Uni<Void> reset(String policy, String key) {
        return Uni.createFrom().deferred(() -> engine.reset(policies.stackOf(policy, 1), encode(key)));
    }

    static String encode(String key) {
        return key == null ? ThrottleKeyBuilder.GLOBAL : ThrottleKeyBuilder.of(key);
    }
}
