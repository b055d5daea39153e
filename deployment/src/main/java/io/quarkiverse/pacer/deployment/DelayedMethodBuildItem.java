package io.quarkiverse.pacer.deployment;

import org.jboss.jandex.MethodInfo;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkus.builder.item.MultiBuildItem;

/** A valid {@code @Delayed} method and what the runtime needs to know about it. */
public final class DelayedMethodBuildItem extends MultiBuildItem {

    private final MethodInfo method;
    private final DelayedConsumerDefinition definition;

    public DelayedMethodBuildItem(MethodInfo method, DelayedConsumerDefinition definition) {
        this.method = method;
        this.definition = definition;
    }

    public MethodInfo getMethod() {
        return method;
    }

    public DelayedConsumerDefinition getDefinition() {
        return definition;
    }
}
