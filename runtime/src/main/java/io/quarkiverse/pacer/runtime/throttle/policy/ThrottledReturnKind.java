package io.quarkiverse.pacer.runtime.throttle.policy;

/**
 * How a {@code @Throttled} method returns, decided at build time from its declared return type: the interceptor
 * blocks for the decision or decides at subscription.
 */
public enum ThrottledReturnKind {
    /** Any other type: the decision is awaited before the method runs. */
    BLOCKING,
    /** {@code Uni} or a subtype: decided at subscription. */
    UNI,
    /** {@code CompletionStage} or a subtype: decided without blocking, failure through the stage. */
    COMPLETION_STAGE,
    /** {@code Multi} or a subtype: decided at subscription. */
    MULTI
}
