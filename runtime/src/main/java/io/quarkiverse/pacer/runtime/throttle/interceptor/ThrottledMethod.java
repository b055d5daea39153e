package io.quarkiverse.pacer.runtime.throttle.interceptor;

import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.runtime.throttle.limits.LiveStack;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottledReturnKind;
import io.quarkiverse.pacer.throttle.OnLimit;
import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;

/**
 * Everything the interceptor needs about one {@code @Throttled} method, prepared once at startup from the
 * build-time definition: the policy stack with its precomputed script arguments, how to form the key, and how the
 * method returns (blocking, {@code Uni}, {@code CompletionStage}, {@code Multi}).
 */
final class ThrottledMethod {

    final String id;
    /** The method's policies as they apply to a call now (runtime overrides, per-key limits). */
    final LiveStack stack;
    final ThrottledReturnKind kind;
    final OnLimit onLimit;
    final long maxWaitMicros;
    private final int[] keyParameters;
    private final ThrottleKeyResolver resolver;

    ThrottledMethod(String id, LiveStack stack, ThrottledReturnKind kind, OnLimit onLimit, long maxWaitMicros,
            int[] keyParameters, ThrottleKeyResolver resolver) {
        this.id = id;
        this.stack = stack;
        this.kind = kind;
        this.onLimit = onLimit;
        this.maxWaitMicros = maxWaitMicros;
        this.keyParameters = keyParameters;
        this.resolver = resolver;
    }

    String key(InvocationContext invocation) {
        if (resolver != null) {
            return ThrottleKeyBuilder.of(resolver.resolve(invocation));
        }
        if (keyParameters.length == 0) {
            return ThrottleKeyBuilder.GLOBAL;
        }
        return ThrottleKeyBuilder.of(invocation.getParameters(), keyParameters);
    }

    /** The key resolver named by the annotation, or {@code null}. */
    ThrottleKeyResolver resolver() {
        return resolver;
    }

    boolean waits(long retryAfterMicros) {
        return onLimit == OnLimit.WAIT && retryAfterMicros > 0 && retryAfterMicros <= maxWaitMicros;
    }
}
