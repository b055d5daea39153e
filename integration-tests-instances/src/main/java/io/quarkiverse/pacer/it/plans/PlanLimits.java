package io.quarkiverse.pacer.it.plans;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;

/** The demo's plans, for the exactness test: {@code free-*} tenants get {@value #FREE} calls, {@code pro-*} {@value #PRO}. */
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
