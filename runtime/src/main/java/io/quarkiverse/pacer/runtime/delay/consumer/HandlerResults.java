package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.HandlerCompletion;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.smallrye.mutiny.Uni;

/**
 * Calls a handler that may block, and reports the outcome of a handler from what it returned, whichever thread ran
 * it.
 */
final class HandlerResults {

    private HandlerResults() {
    }

    /**
     * Calls a handler that may block on this thread, in a request context of its own, and reports its outcome; a
     * handler whose call comes after shutdown began is not started ({@link HandlerInvoker#NOT_STARTED}).
     */
    static void callBlocking(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker, Object argument,
            BooleanSupplier stopping, Consumer<Throwable> outcome) {
        if (stopping.getAsBoolean()) {
            outcome.accept(HandlerInvoker.NOT_STARTED);
            return;
        }
        Object result;
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            result = invoker.invoke(null, new Object[] { argument });
        } catch (Throwable t) {
            outcome.accept(t);
            return;
        } finally {
            requestContext.terminate();
        }
        complete(definition, result, outcome);
    }

    /** {@code void}: done; {@code Uni}/{@code CompletionStage}: done when it completes. */
    static void complete(DelayedConsumerDefinition definition, Object result, Consumer<Throwable> outcome) {
        if (definition.getReturnKind() == HandlerCompletion.VOID) {
            outcome.accept(null);
        } else if (result instanceof Uni<?> uni) {
            uni.subscribe().with(item -> outcome.accept(null), outcome::accept);
        } else if (result instanceof CompletionStage<?> stage) {
            stage.whenComplete((item, failure) -> outcome.accept(failure));
        } else {
            outcome.accept(new IllegalStateException(definition.describe() + " returned null"));
        }
    }
}
