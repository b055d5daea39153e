package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/** Runs a handler returning {@code Uni<Void>} or {@code CompletionStage<Void>} on the event loop. */
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
            if (result instanceof Uni<?> uni) {
                uni.subscribe().with(item -> outcome.accept(null), outcome::accept);
            } else if (result instanceof CompletionStage<?> stage) {
                stage.whenComplete((item, failure) -> outcome.accept(failure));
            } else {
                outcome.accept(new IllegalStateException(definition.describe() + " returned null"));
            }
        });
    }
}
