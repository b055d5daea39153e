package io.quarkiverse.pacer.deployment;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkus.builder.item.MultiBuildItem;

/** The ArC invoker generated for one {@code @Delayed} method. */
public final class DelayedInvokerBuildItem extends MultiBuildItem {

    private final DelayedConsumerDefinition definition;
    private final String invokerClassName;

    public DelayedInvokerBuildItem(DelayedConsumerDefinition definition, String invokerClassName) {
        this.definition = definition;
        this.invokerClassName = invokerClassName;
    }

    public DelayedConsumerDefinition getDefinition() {
        return definition;
    }

    public String getInvokerClassName() {
        return invokerClassName;
    }
}
