package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.vertx.core.Context;

/**
 * Runs a handler on a worker thread, in a request context of its own: a {@code void} method, or any method annotated
 * {@code @Blocking}.
 */
final class OffloadingHandlerInvoker implements HandlerInvoker {

    private final DelayedConsumerDefinition definition;
    private final Invoker<Object, Object> invoker;

    OffloadingHandlerInvoker(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker) {
        this.definition = definition;
        this.invoker = invoker;
    }

    @Override
    public void invoke(Context context, Object argument, BooleanSupplier stopping, Consumer<Throwable> outcome) {
        Object[] arguments = { argument };
        context.executeBlocking(() -> {
            if (stopping.getAsBoolean()) {
                throw NOT_STARTED;
            }
            ManagedContext requestContext = Arc.container().requestContext();
            requestContext.activate();
            try {
                return invoker.invoke(null, arguments);
            } finally {
                requestContext.terminate();
            }
        }, false).onComplete(result -> {
            if (result.failed()) {
                outcome.accept(result.cause());
            } else {
                HandlerResults.complete(definition, result.result(), outcome);
            }
        });
    }
}
