package io.quarkiverse.pacer.runtime.delay;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.integration.ChannelForwardingInvoker;
import io.quarkiverse.pacer.runtime.delay.integration.DelayedChannelForwarder;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;

/** Hands the delay-queue consumers found at build time to the runtime, as the {@link HandlersByQueue} bean. */
@Recorder
public class DelayedRecorder {

    /** A {@code @Delayed} method with the ArC invoker generated for it. */
    public RuntimeValue<DelayedHandler> method(DelayedConsumerDefinition definition,
            RuntimeValue<Invoker<Object, Object>> invoker) {
        return new RuntimeValue<>(new DelayedHandler(definition, invoker.getValue()));
    }

    /**
     * A queue forwarded to a Quarkus Messaging channel, with the generated forwarder bean of that channel (a class
     * proxy of the build: never loaded by name).
     */
    public RuntimeValue<DelayedHandler> forwarder(DelayedConsumerDefinition definition, Class<?> forwarderClass) {
        return new RuntimeValue<>(new DelayedHandler(definition,
                new ChannelForwardingInvoker(forwarderClass.asSubclass(DelayedChannelForwarder.class))));
    }

    public Supplier<HandlersByQueue> handlers(List<RuntimeValue<DelayedHandler>> handlers) {
        List<DelayedHandler> all = new ArrayList<>(handlers.size());
        handlers.forEach(handler -> all.add(handler.getValue()));
        HandlersByQueue recorded = new HandlersByQueue(all);
        return () -> recorded;
    }
}
