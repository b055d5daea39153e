package io.quarkiverse.pacer.runtime.delay;

/** How a {@code @Delayed} method reports completion, decided at build time. */
public enum HandlerCompletion {
    /** {@code void}: a blocking method, run on a worker thread. */
    VOID,
    /** {@code Uni<Void>}: non-blocking, invoked on an event loop. */
    UNI,
    /** {@code CompletionStage<Void>}: non-blocking, invoked on an event loop. */
    COMPLETION_STAGE
}
