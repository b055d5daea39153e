package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.vertx.core.Context;

/** Runs a {@code void} handler on a worker thread, in a request context of its own. */
final class OffloadingHandlerInvoker implements HandlerInvoker {

    private final Invoker<Object, Object> invoker;

    OffloadingHandlerInvoker(Invoker<Object, Object> invoker) {
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
                invoker.invoke(null, arguments);
            } finally {
                requestContext.terminate();
            }
            return null;
        }, false).onComplete(result -> outcome.accept(result.cause()));
    }
}
