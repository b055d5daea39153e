package io.quarkiverse.pacer.runtime.throttle;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.throttle.ReactiveThrottler;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.smallrye.mutiny.Uni;

/**
 * The {@link ReactiveThrottler} bean: one script call per operation, never blocking.
 */
@Singleton
public class DefaultReactiveThrottler implements ReactiveThrottler {

    private final ThrottleEngine engine;

    DefaultReactiveThrottler(ThrottleEngine engine) {
        this.engine = engine;
    }

    @Override
    public Uni<ThrottleDecision> acquire(String policy, String key, int cost) {
        return Uni.createFrom().deferred(() -> engine.decide(engine.stackOf(policy, cost), encode(key),
                ThrottleStack.ACQUIRE)).map(outcome -> outcome.decision(0));
    }

    @Override
    public Uni<ThrottleDecision> peek(String policy, String key) {
        return Uni.createFrom().deferred(() -> engine.decide(engine.stackOf(policy, 1), encode(key),
                ThrottleStack.PEEK)).map(outcome -> outcome.decision(0));
    }

    @Override
    public Uni<Void> reset(String policy, String key) {
        return Uni.createFrom().deferred(() -> engine.reset(engine.stackOf(policy, 1), encode(key)));
    }

    static String encode(String key) {
        return key == null ? ThrottleKeyBuilder.GLOBAL : ThrottleKeyBuilder.of(key);
    }
}
