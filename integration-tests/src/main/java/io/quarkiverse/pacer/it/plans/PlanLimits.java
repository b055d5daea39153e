package io.quarkiverse.pacer.it.plans;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;

/**
 * The plan of each tenant, as a real application would read it from its customer database: tenants named
 * {@code free-*} get {@value #FREE} calls per window, {@code pro-*} get {@value #PRO}, every other tenant the policy's
 * own limit.
 */
@ApplicationScoped
public class PlanLimits implements ThrottleLimitResolver {

    static final int FREE = 5;
    static final int PRO = 50;

    @Override
    public ThrottleLimit resolve(String policy, String tenant) {
        if (tenant.startsWith("free-")) {
            return ThrottleLimit.of(FREE);
        }
        if (tenant.startsWith("pro-")) {
            return ThrottleLimit.of(PRO);
        }
        return ThrottleLimit.of(1);
    }
}
