package io.quarkiverse.pacer.deployment;

import java.util.List;

import org.jboss.jandex.MethodInfo;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkus.builder.item.SimpleBuildItem;

/**
 * The valid {@code @Delayed} methods of the application, sorted, each with the ArC invoker generated for it, plus the
 * problems found with all of them.
 */
public final class DelayedMethodsBuildItem extends SimpleBuildItem {

    /** A valid {@code @Delayed} method, what the runtime needs to know about it, and its ArC invoker. */
    public record DelayedMethod(MethodInfo method, DelayedConsumerDefinition definition, String invokerClassName) {
    }

    private final List<DelayedMethod> methods;
    private final List<String> problems;

    public DelayedMethodsBuildItem(List<DelayedMethod> methods, List<String> problems) {
        this.methods = List.copyOf(methods);
        this.problems = List.copyOf(problems);
    }

    public List<DelayedMethod> getMethods() {
        return methods;
    }

    public List<String> getProblems() {
        return problems;
    }
}
