package io.quarkiverse.pacer.runtime.delay;

import io.quarkus.arc.Arc;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;

/** Hands the {@code @Delayed} methods found at build time, with their ArC invokers, to the runtime. */
@Recorder
public class DelayedRecorder {

    public void registerConsumer(DelayedConsumerDefinition definition, RuntimeValue<Object> invoker) {
        @SuppressWarnings("unchecked")
        jakarta.enterprise.invoke.Invoker<Object, Object> typed = (jakarta.enterprise.invoke.Invoker<Object, Object>) invoker
                .getValue();
        Arc.container().instance(DelayedConsumers.class).get().register(definition, typed);
    }
}
