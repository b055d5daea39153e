package io.quarkiverse.pacer.deployment;

import java.util.List;

import io.quarkiverse.pacer.runtime.throttle.policy.MethodDefinition;
import io.quarkiverse.pacer.runtime.throttle.policy.PolicyDefinition;
import io.quarkus.builder.item.SimpleBuildItem;

/**
 * Every {@code @Throttled} policy and method of the application, sorted by name, plus the problems found with them.
 */
public final class ThrottledMethodsBuildItem extends SimpleBuildItem {

    private final List<PolicyDefinition> policies;
    private final List<MethodDefinition> methods;
    private final List<MethodKey> methodKeys;
    private final List<String> problems;

    ThrottledMethodsBuildItem(List<PolicyDefinition> policies, List<MethodDefinition> methods,
            List<MethodKey> methodKeys, List<String> problems) {
        this.policies = List.copyOf(policies);
        this.methods = List.copyOf(methods);
        this.methodKeys = List.copyOf(methodKeys);
        this.problems = List.copyOf(problems);
    }

    public List<PolicyDefinition> getPolicies() {
        return policies;
    }

    public List<MethodDefinition> getMethods() {
        return methods;
    }

    /** The method of each definition, at the same position as in {@link #getMethods()}. */
    List<MethodKey> getMethodKeys() {
        return methodKeys;
    }

    public List<String> getProblems() {
        return problems;
    }
}
