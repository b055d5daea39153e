package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkus.virtual.threads.VirtualThreadsRecorder;
import io.vertx.core.Context;

/**
 * Runs a {@code @RunOnVirtualThread} handler on Quarkus's virtual-thread executor, in a request context of its own.
 * On Java 21 and later that is a new virtual thread per message; on Java 17 Quarkus's executor falls back to worker
 * threads, as it does for its own {@code @RunOnVirtualThread} entry points.
 */
final class VirtualThreadHandlerInvoker implements HandlerInvoker {

    private final DelayedConsumerDefinition definition;
    private final Invoker<Object, Object> invoker;

    VirtualThreadHandlerInvoker(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker) {
        this.definition = definition;
        this.invoker = invoker;
    }

    @Override
    public void invoke(Context context, Object argument, BooleanSupplier stopping, Consumer<Throwable> outcome) {
        try {
            VirtualThreadsRecorder.getCurrent()
                    .execute(() -> HandlerResults.callBlocking(definition, invoker, argument, stopping, outcome));
        } catch (RuntimeException rejected) {
            // The executor is shut down: the application is stopping.
            outcome.accept(NOT_STARTED);
        }
    }
}
