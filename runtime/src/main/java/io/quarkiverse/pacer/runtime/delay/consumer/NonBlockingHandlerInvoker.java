package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.vertx.core.Context;

/**
 * Runs a handler on the event loop: one returning {@code Uni<Void>} or {@code CompletionStage<Void>}, or any method
 * annotated {@code @NonBlocking}.
 */
final class NonBlockingHandlerInvoker implements HandlerInvoker {

    private final DelayedConsumerDefinition definition;
    private final Invoker<Object, Object> invoker;

    NonBlockingHandlerInvoker(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker) {
        this.definition = definition;
        this.invoker = invoker;
    }

    @Override
    public void invoke(Context context, Object argument, BooleanSupplier stopping, Consumer<Throwable> outcome) {
        Object[] arguments = { argument };
        context.runOnContext(v -> {
            Object result;
            try {
                result = invoker.invoke(null, arguments);
            } catch (Throwable t) {
                outcome.accept(t);
                return;
            }
            HandlerResults.complete(definition, result, outcome);
        });
    }
}
