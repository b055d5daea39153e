package io.quarkiverse.pacer.runtime.throttle;

import java.util.concurrent.CompletionStage;

import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.throttle.OnLimit;
import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Everything the interceptor needs about one {@code @Throttled} method, prepared once at startup from the
 * build-time definition: the policy stack with its precomputed script arguments, how to form the key, and how the
 * method returns (blocking, {@code Uni}, {@code CompletionStage}, {@code Multi}).
 */
final class ThrottledMethod {

    enum Kind {
        BLOCKING,
        UNI,
        COMPLETION_STAGE,
        MULTI
    }

    final String id;
    /** The method's policies as they apply to a call now (runtime overrides, per-key limits). */
    final LiveStack stack;
    final Kind kind;
    final OnLimit onLimit;
    final long maxWaitMicros;
    private final int[] keyParameters;
    private final ThrottleKeyResolver resolver;

    ThrottledMethod(String id, LiveStack stack, Kind kind, OnLimit onLimit, long maxWaitMicros,
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

    boolean waits(long retryAfterMicros) {
        return onLimit == OnLimit.WAIT && retryAfterMicros > 0 && retryAfterMicros <= maxWaitMicros;
    }

    static Kind kindOf(Class<?> returnType) {
        if (Uni.class.isAssignableFrom(returnType)) {
            return Kind.UNI;
        }
        if (CompletionStage.class.isAssignableFrom(returnType)) {
            return Kind.COMPLETION_STAGE;
        }
        if (Multi.class.isAssignableFrom(returnType)) {
            return Kind.MULTI;
        }
        return Kind.BLOCKING;
    }
}
