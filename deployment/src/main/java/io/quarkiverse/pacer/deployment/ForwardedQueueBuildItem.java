package io.quarkiverse.pacer.deployment;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkus.builder.item.MultiBuildItem;

/**
 * A delay queue handed to a Quarkus Messaging channel ({@code quarkus.pacer.delayed."<queue>".forward-to}), with the
 * generated forwarder bean of that channel.
 */
public final class ForwardedQueueBuildItem extends MultiBuildItem {

    private final DelayedConsumerDefinition definition;
    private final String forwarderClass;

    public ForwardedQueueBuildItem(DelayedConsumerDefinition definition, String forwarderClass) {
        this.definition = definition;
        this.forwarderClass = forwarderClass;
    }

    public DelayedConsumerDefinition getDefinition() {
        return definition;
    }

    public String getForwarderClass() {
        return forwarderClass;
    }
}
