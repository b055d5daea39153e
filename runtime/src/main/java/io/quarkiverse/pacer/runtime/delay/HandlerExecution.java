package io.quarkiverse.pacer.runtime.delay;

/**
 * Which thread runs a {@code @Delayed} method, decided at build time from its return type and its
 * {@code @Blocking}, {@code @NonBlocking} or {@code @RunOnVirtualThread} annotation.
 */
public enum HandlerExecution {
    /** A worker thread: the default of {@code void} methods, and {@code @Blocking}. */
    WORKER,
    /** The consumer's event loop: the default of {@code Uni}/{@code CompletionStage} methods, and {@code @NonBlocking}. */
    EVENT_LOOP,
    /** {@code @RunOnVirtualThread}: a virtual thread on Java 21 and later, a worker thread on Java 17. */
    VIRTUAL_THREAD;

    /** The execution of a method without an execution-model annotation. */
    public static HandlerExecution defaultFor(HandlerCompletion completion) {
        return completion == HandlerCompletion.VOID ? WORKER : EVENT_LOOP;
    }
}
