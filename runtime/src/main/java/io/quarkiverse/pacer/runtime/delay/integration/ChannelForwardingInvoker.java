package io.quarkiverse.pacer.runtime.delay.integration;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkus.arc.Arc;

/**
 * Stands in for the {@code @Delayed} method of a forwarded queue: the consumer loop "invokes" it with the
 * {@link DelayedMessage} (payload as stored) and gets back a stage completed by the channel's acknowledgement.
 * <p>
 * The forwarder bean is looked up at the first message, not at registration: its emitter exists only once Quarkus
 * Messaging has started, which happens before the consumers start claiming.
 */
public final class ChannelForwardingInvoker implements Invoker<Object, Object> {

    private final Class<? extends DelayedChannelForwarder> forwarderClass;
    private volatile DelayedChannelForwarder forwarder;

    public ChannelForwardingInvoker(Class<? extends DelayedChannelForwarder> forwarderClass) {
        this.forwarderClass = forwarderClass;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object invoke(Object instance, Object[] arguments) {
        DelayedChannelForwarder current = forwarder;
        if (current == null) {
            current = Arc.container().instance(forwarderClass).get();
            forwarder = current;
        }
        return current.forward((DelayedMessage<Object>) arguments[0]);
    }
}
