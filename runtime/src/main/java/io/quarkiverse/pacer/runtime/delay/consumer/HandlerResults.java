package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.HandlerCompletion;
import io.smallrye.mutiny.Uni;

/** Reports the outcome of a handler from what it returned, whichever thread ran it. */
final class HandlerResults {

    private HandlerResults() {
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
