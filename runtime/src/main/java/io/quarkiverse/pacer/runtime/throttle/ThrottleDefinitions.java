package io.quarkiverse.pacer.runtime.throttle;

import java.util.List;

/**
 * What the build found: every {@code @Throttled} policy and method, sorted. Exposed as a synthetic bean.
 */
public final class ThrottleDefinitions {

    private final List<PolicyDefinition> policies;
    private final List<MethodDefinition> methods;

    public ThrottleDefinitions(List<PolicyDefinition> policies, List<MethodDefinition> methods) {
        this.policies = List.copyOf(policies);
        this.methods = List.copyOf(methods);
    }

    public List<PolicyDefinition> policies() {
        return policies;
    }

    /** Sorted by id; a method's position is the {@link ThrottledMethodIndex} the build bound it with. */
    public List<MethodDefinition> methods() {
        return methods;
    }
}
