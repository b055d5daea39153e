package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.HandlerCompletion;
import io.vertx.core.Context;

/**
 * Runs the handler of a queue for one message and reports the outcome: a blocking ({@code void}) handler is offloaded
 * to a worker thread ({@link OffloadingHandlerInvoker}), a {@code Uni} or {@code CompletionStage} one runs on the event
 * loop ({@link NonBlockingHandlerInvoker}).
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
        return definition.getReturnKind() == HandlerCompletion.VOID ? new OffloadingHandlerInvoker(invoker)
                : new NonBlockingHandlerInvoker(definition, invoker);
    }
}
