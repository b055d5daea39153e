package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.vertx.core.Context;

/**
 * Runs the handler of a queue for one message and reports the outcome, on the thread its execution model names: a
 * worker thread ({@link OffloadingHandlerInvoker}: {@code void} methods and {@code @Blocking}), the event loop
 * ({@link NonBlockingHandlerInvoker}: {@code Uni}/{@code CompletionStage} methods and {@code @NonBlocking}), or a
 * virtual thread ({@link VirtualThreadHandlerInvoker}: {@code @RunOnVirtualThread}).
 */
interface HandlerInvoker {

    /** Passed to the outcome when shutdown began before a blocking handler got a worker thread. */
    RuntimeException NOT_STARTED = new RuntimeException("not started", null, false, false) {
    };

    /**
     * @param context a duplicated context of the consumer's event loop, for this message alone
     * @param stopping whether shutdown began, so a handler that has not started yet should not
     * @param outcome called once, on any thread, with {@code null} on success or the failure
     */
    void invoke(Context context, Object argument, BooleanSupplier stopping, Consumer<Throwable> outcome);

    static HandlerInvoker of(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker) {
        return switch (definition.getExecution()) {
            case WORKER -> new OffloadingHandlerInvoker(definition, invoker);
            case EVENT_LOOP -> new NonBlockingHandlerInvoker(definition, invoker);
            case VIRTUAL_THREAD -> new VirtualThreadHandlerInvoker(definition, invoker);
        };
    }
}
