package io.quarkiverse.pacer.runtime.throttle.policy;

import java.util.List;
import java.util.Map;

import io.quarkiverse.pacer.runtime.throttle.interceptor.MethodIndex;

/**
 * What the build found: every {@code @Throttled} policy and method, sorted, and the resolver bean classes they name.
 * Exposed as a synthetic bean.
 */
public final class ThrottleDefinitions {

    private final List<PolicyDefinition> policies;
    private final List<MethodDefinition> methods;
    private final Map<String, Class<?>> resolverClasses;

    public ThrottleDefinitions(List<PolicyDefinition> policies, List<MethodDefinition> methods,
            Map<String, Class<?>> resolverClasses) {
        this.policies = List.copyOf(policies);
        this.methods = List.copyOf(methods);
        this.resolverClasses = Map.copyOf(resolverClasses);
    }

    public List<PolicyDefinition> policies() {
        return policies;
    }

    /** Sorted by id; a method's position is the {@link MethodIndex} the build bound it with. */
    public List<MethodDefinition> methods() {
        return methods;
    }

    /**
     * The class of a {@code ThrottleKeyResolver} or {@code ThrottleLimitResolver} bean named by a definition, recorded
     * by the build, so the runtime never loads an application class by name.
     */
    public Class<?> resolverClass(String className) {
        Class<?> type = resolverClasses.get(className);
        if (type == null) {
            throw new IllegalStateException("The build recorded no class for resolver " + className);
        }
        return type;
    }
}
