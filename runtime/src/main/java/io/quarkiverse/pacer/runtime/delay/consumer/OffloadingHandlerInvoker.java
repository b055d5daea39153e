package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Runs a handler on a worker thread, in a request context of its own: a {@code void} method, or any method annotated
 * {@code @Blocking}. The queue's {@link WorkerRunners} run short handlers back to back on few worker threads.
 */
final class OffloadingHandlerInvoker implements HandlerInvoker {

    private final DelayedConsumerDefinition definition;
    private final Invoker<Object, Object> invoker;
    private final WorkerRunners runners;

    OffloadingHandlerInvoker(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker) {
        this.definition = definition;
        this.invoker = invoker;
        this.runners = new WorkerRunners(definition.describe());
    }

    @Override
    public void invoke(Context context, Object argument, BooleanSupplier stopping, Consumer<Throwable> outcome) {
        runners.submit((ContextInternal) context,
                () -> HandlerResults.callBlocking(definition, invoker, argument, stopping, outcome), outcome);
    }
}
