package io.quarkiverse.pacer.runtime.delay;

import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.Recorder;

/** Registers the queues forwarded to a Quarkus Messaging channel as consumers, each with its channel's forwarder. */
@Recorder
public class DelayedForwardingRecorder {

    public void registerForwarder(DelayedConsumerDefinition definition, String forwarderClass) {
        Class<? extends DelayedChannelForwarder> type;
        try {
            type = Class.forName(forwarderClass, false, Thread.currentThread().getContextClassLoader())
                    .asSubclass(DelayedChannelForwarder.class);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("The forwarder of " + definition.describe() + " is missing", e);
        }
        Arc.container().instance(DelayedConsumers.class).get().register(definition, new ChannelForwardingInvoker(type));
    }
}
