package io.quarkiverse.pacer.runtime.delay;

import jakarta.enterprise.invoke.Invoker;

/**
 * The consumer of one delay queue as the build found it: a {@code @Delayed} method with its ArC invoker, or a
 * {@code forward-to} channel with its forwarding invoker.
 */
public record DelayedHandler(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker) {

    public String queue() {
        return definition.getQueue();
    }
}
