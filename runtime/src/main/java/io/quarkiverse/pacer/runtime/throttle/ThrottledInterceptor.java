package io.quarkiverse.pacer.runtime.throttle;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.throttle.Throttled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * Enforces {@link Throttled} on bean methods. Blocking methods wait for the decision (never on an event-loop thread);
 * {@code Uni}, {@code CompletionStage} and {@code Multi} methods are decided at subscription without blocking, and a
 * rejection is delivered through the returned type.
 */
@Throttled(limit = 1)
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class ThrottledInterceptor {

    private final ThrottleEngine engine;

    ThrottledInterceptor(ThrottleEngine engine) {
        this.engine = engine;
    }

    @AroundInvoke
    Object throttle(InvocationContext invocation) throws Exception {
        ThrottledMethod method = engine.method(invocation.getMethod());
        if (method == null) {
            return invocation.proceed();
        }
        String key = method.key(invocation);
        // Captured now: the decision may complete on another context, the HTTP response filter reads this one.
        Context request = engine.headersOnSuccess() ? RateLimitHeaders.requestContext() : null;
        return switch (method.kind) {
            case UNI -> permitted(method, key, request)
                    .onItem().transformToUni(outcome -> proceedUni(invocation, outcome));
            case COMPLETION_STAGE -> permitted(method, key, request)
                    .onItem().transformToUni(outcome -> proceedStage(invocation, outcome))
                    .subscribeAsCompletionStage();
            case MULTI -> permitted(method, key, request)
                    .onItem().transformToMulti(outcome -> proceedMulti(invocation, outcome));
            case BLOCKING -> proceedBlocking(invocation, method, key, request);
        };
    }

    private Object proceedBlocking(InvocationContext invocation, ThrottledMethod method, String key, Context request)
            throws Exception {
        if (Context.isOnEventLoopThread()) {
            ThrottleEngine.checkMayBlock("@Throttled method " + method.id);
        }
        ThrottleOutcome outcome = engine.decideBlocking(method.stack, key, ThrottleStack.ACQUIRE);
        if (!outcome.allowed()) {
            long retryAfter = outcome.retryAfterMicros();
            if (!method.waits(retryAfter)) {
                throw outcome.exception();
            }
            // A timed sleep on a worker or virtual thread: the waiting is the point, and nothing spins.
            TimeUnit.MICROSECONDS.sleep(retryAfter);
            outcome = engine.decideBlocking(method.stack, key, ThrottleStack.ACQUIRE);
            if (!outcome.allowed()) {
                throw outcome.exception();
            }
        }
        RateLimitHeaders.remember(request, outcome);
        if (!method.stack.holdsLeases) {
            return invocation.proceed();
        }
        try {
            return invocation.proceed();
        } finally {
            engine.release(outcome);
        }
    }

    /** Decides at subscription; rejections (after an optional wait on a timer) fail the returned Uni. */
    private Uni<ThrottleOutcome> permitted(ThrottledMethod method, String key, Context request) {
        return engine.decide(method.stack, key, ThrottleStack.ACQUIRE).onItem().transformToUni(outcome -> {
            if (outcome.allowed()) {
                RateLimitHeaders.remember(request, outcome);
                return Uni.createFrom().item(outcome);
            }
            long retryAfter = outcome.retryAfterMicros();
            if (!method.waits(retryAfter)) {
                return Uni.createFrom().failure(outcome.exception());
            }
            return Uni.createFrom().voidItem()
                    .onItem().delayIt().by(Duration.ofNanos(retryAfter * 1000))
                    .onItem().transformToUni(ignored -> engine.decide(method.stack, key, ThrottleStack.ACQUIRE))
                    .onItem().transformToUni(retried -> {
                        if (!retried.allowed()) {
                            return Uni.createFrom().failure(retried.exception());
                        }
                        RateLimitHeaders.remember(request, retried);
                        return Uni.createFrom().item(retried);
                    });
        });
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> proceedUni(InvocationContext invocation, ThrottleOutcome outcome) {
        Uni<Object> result;
        try {
            result = (Uni<Object>) invocation.proceed();
        } catch (Exception e) {
            engine.release(outcome);
            return Uni.createFrom().failure(e);
        }
        return outcome.stack().holdsLeases ? result.onTermination().invoke(() -> engine.release(outcome)) : result;
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> proceedStage(InvocationContext invocation, ThrottleOutcome outcome) {
        CompletionStage<Object> stage;
        try {
            stage = (CompletionStage<Object>) invocation.proceed();
        } catch (Exception e) {
            engine.release(outcome);
            return Uni.createFrom().failure(e);
        }
        Uni<Object> result = Uni.createFrom().completionStage(stage);
        return outcome.stack().holdsLeases ? result.onTermination().invoke(() -> engine.release(outcome)) : result;
    }

    @SuppressWarnings("unchecked")
    private Multi<Object> proceedMulti(InvocationContext invocation, ThrottleOutcome outcome) {
        Multi<Object> result;
        try {
            result = (Multi<Object>) invocation.proceed();
        } catch (Exception e) {
            engine.release(outcome);
            return Multi.createFrom().failure(e);
        }
        return outcome.stack().holdsLeases ? result.onTermination().invoke(() -> engine.release(outcome)) : result;
    }
}
