package io.quarkiverse.pacer.runtime.throttle;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleObserver;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;

/**
 * Micrometer metrics of throttling decisions, registered only when Micrometer is present:
 * {@code pacer.throttle.decisions} (tags {@code policy}, {@code outcome} = permitted | rejected | fallback |
 * rejected-locally, the last for calls the local short-circuit rejected without asking Redis, not counted in
 * {@code rejected}) and
 * {@code pacer.throttle.decision.latency} (tag {@code policy}). Meters are created once per policy, not per call.
 * <p>
 * {@code permitted} counts calls that went through: a policy that admitted a call another policy of its stack rejected
 * counts neither permitted nor rejected (it took nothing).
 */
@Singleton
public class ThrottleMetrics implements ThrottleObserver {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, PolicyMeters> meters = new ConcurrentHashMap<>();

    ThrottleMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void decided(ThrottleOutcome outcome, long nanos) {
        if (outcome.local()) {
            // Only the policy whose cached rejection answered was evaluated; no round trip to time.
            for (int i = 0; i < outcome.size(); i++) {
                if (!outcome.policyAllowed(i)) {
                    meters.computeIfAbsent(outcome.stack().policies[i].name, PolicyMeters::new).rejectedLocally
                            .increment();
                }
            }
            return;
        }
        for (int i = 0; i < outcome.size(); i++) {
            PolicyMeters policy = meters.computeIfAbsent(outcome.stack().policies[i].name, PolicyMeters::new);
            if (outcome.fallback()) {
                policy.fallback.increment();
            } else if (outcome.policyAllowed(i)) {
                if (outcome.allowed()) {
                    policy.permitted.increment();
                }
            } else {
                policy.rejected.increment();
            }
            policy.latency.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    private final class PolicyMeters {
        final Counter permitted;
        final Counter rejected;
        final Counter fallback;
        final Counter rejectedLocally;
        final Timer latency;

        PolicyMeters(String policy) {
            permitted = counter(policy, "permitted");
            rejected = counter(policy, "rejected");
            fallback = counter(policy, "fallback");
            rejectedLocally = counter(policy, "rejected-locally");
            latency = Timer.builder("pacer.throttle.decision.latency")
                    .description("Time to decide a throttled call, including the round trip to Redis")
                    .tag("policy", policy)
                    .register(registry);
        }

        private Counter counter(String policy, String outcome) {
            return Counter.builder("pacer.throttle.decisions")
                    .description("Throttling decisions per policy and outcome")
                    .tag("policy", policy)
                    .tag("outcome", outcome)
                    .register(registry);
        }
    }
}
