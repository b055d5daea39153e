package io.quarkiverse.pacer.runtime.throttle.interceptor;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleMode;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;
import io.quarkiverse.pacer.runtime.throttle.http.RateLimitHeaders;
import io.quarkiverse.pacer.runtime.throttle.lease.ConcurrencyLeases;
import io.quarkiverse.pacer.runtime.throttle.lease.Lease;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottledReturnKind;
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
@Priority(Throttled.INTERCEPTOR_PRIORITY)
public class ThrottledInterceptor {

    /** {@code quarkus.pacer.throttle.enabled}: when {@code false} every call proceeds unchecked. */
    private final boolean enabled;
    private final ThrottleEngine engine;
    private final InterceptedMethods methods;
    private final ConcurrencyLeases leases;

    ThrottledInterceptor(ThrottleEngine engine, InterceptedMethods methods, ConcurrencyLeases leases,
            PacerConfig config) {
        this.enabled = config.throttle().enabled();
        this.engine = engine;
        this.methods = methods;
        this.leases = leases;
    }

    @AroundInvoke
    Object throttle(InvocationContext invocation) throws Exception {
        ThrottledMethod method = enabled ? methods.of(invocation) : null;
        if (method == null) {
            return invocation.proceed();
        }
        AdvanceDecisions.Advance advance = AdvanceDecisions.take(method);
        if (advance != null) {
            // Decided before the invocation (a REST endpoint's request filter): nothing to decide again.
            return proceedDecided(invocation, method, advance.lease());
        }
        String key = method.key(invocation);
        if (method.kind == ThrottledReturnKind.BLOCKING) {
            if (Context.isOnEventLoopThread()) {
                DecisionStack cached = method.stack.cached(key);
                if (cached != null && cached.isEmpty()) {
                    // Nothing to decide (every policy off): nothing blocks.
                    return invocation.proceed();
                }
                // Before the key's limits are resolved, which may block too.
                ThrottleEngine.checkMayBlock("@Throttled method " + method.id);
            }
            return throttle(invocation, method, key, method.stack.current(key));
        }
        DecisionStack cached = method.stack.cached(key);
        if (cached != null) {
            return throttle(invocation, method, key, cached);
        }
        // The key's limits are not cached: resolved without blocking, then decided as usual.
        Uni<DecisionStack> resolved = method.stack.resolve(key);
        return switch (method.kind) {
            case UNI -> resolved.onItem().transformToUni(stack -> throttleResolved(invocation, method, key, stack));
            case COMPLETION_STAGE -> resolved.onItem()
                    .transformToUni(stack -> throttleResolved(invocation, method, key, stack))
                    .subscribeAsCompletionStage();
            case MULTI -> resolved.onItem().transformToMulti(stack -> {
                try {
                    return asMulti(throttle(invocation, method, key, stack));
                } catch (Exception e) {
                    return Multi.createFrom().failure(e);
                }
            });
            case BLOCKING -> throw new IllegalStateException("decided above");
        };
    }

    /** {@link #throttle} of a {@code Uni} or {@code CompletionStage} method once its key's limits are known. */
    private Uni<Object> throttleResolved(InvocationContext invocation, ThrottledMethod method, String key,
            DecisionStack stack) {
        try {
            Object result = throttle(invocation, method, key, stack);
            return method.kind == ThrottledReturnKind.UNI ? asUni(result)
                    : Uni.createFrom().completionStage(asStage(result));
        } catch (Exception e) {
            return Uni.createFrom().failure(e);
        }
    }

    /** Decides the call against the stack in force for its key, then runs it if permitted. */
    private Object throttle(InvocationContext invocation, ThrottledMethod method, String key, DecisionStack stack)
            throws Exception {
        if (stack.isEmpty()) {
            return invocation.proceed();
        }
        if (stack.holdsLeases) {
            // A reentrant call of a CONCURRENCY policy this caller already holds takes no second permit.
            stack = leases.unheld(stack, key);
            if (stack == null) {
                return invocation.proceed();
            }
        }
        DecisionStack decided = stack;
        // The reactive call chain, captured at the call: decisions may complete on another context.
        ConcurrencyLeases.Scope scope = decided.holdsLeases ? ConcurrencyLeases.contextScope() : null;
        // Captured now: the decision may complete on another context, the HTTP response filter reads this one.
        Context request = engine.headersOnSuccess() ? RateLimitHeaders.requestContext() : null;
        return switch (method.kind) {
            case UNI -> permitted(method, decided, key, request)
                    .onItem().transformToUni(outcome -> proceedUni(invocation, outcome, scope));
            case COMPLETION_STAGE -> permitted(method, decided, key, request)
                    .onItem().transformToUni(outcome -> proceedStage(invocation, outcome, scope))
                    .subscribeAsCompletionStage();
            case MULTI -> permitted(method, decided, key, request)
                    .onItem().transformToMulti(outcome -> proceedMulti(invocation, outcome, scope));
            case BLOCKING -> proceedBlocking(invocation, method, decided, key, request);
        };
    }

    private Object proceedBlocking(InvocationContext invocation, ThrottledMethod method, DecisionStack stack, String key,
            Context request)
            throws Exception {
        ThrottleOutcome outcome = engine.decideBlocking(stack, key, ThrottleMode.ACQUIRE);
        if (!outcome.allowed()) {
            long retryAfter = outcome.retryAfterMicros();
            if (!method.waits(retryAfter)) {
                throw outcome.exception();
            }
            // A timed sleep on a worker or virtual thread: the waiting is the point, and nothing spins.
            TimeUnit.MICROSECONDS.sleep(retryAfter);
            outcome = engine.decideBlocking(stack, key, ThrottleMode.ACQUIRE);
            if (!outcome.allowed()) {
                throw outcome.exception();
            }
        }
        RateLimitHeaders.remember(request, outcome);
        if (!stack.holdsLeases) {
            return invocation.proceed();
        }
        try (Lease lease = leases.hold(outcome, leases.threadScope())) {
            return invocation.proceed();
        }
    }

    /**
     * Runs an invocation decided in advance. Its lease, if any, is released by whoever decided once the response is
     * written; it is marked on this thread while the method body runs, so reentrant calls take no second permit.
     */
    private Object proceedDecided(InvocationContext invocation, ThrottledMethod method, Lease lease) throws Exception {
        if (lease == null) {
            return invocation.proceed();
        }
        ConcurrencyLeases.Scope thread = leases.threadScope();
        lease.mark(thread);
        try {
            Object result = invocation.proceed();
            if (method.kind != ThrottledReturnKind.BLOCKING) {
                // The response is written once the returned type terminates: the lease ends then at the latest.
                return closedOnTermination(method.kind, result, lease);
            }
            return result;
        } finally {
            lease.unmark(thread);
        }
    }

    private static Object closedOnTermination(ThrottledReturnKind kind, Object result, Lease lease) {
        return switch (kind) {
            case UNI -> asUni(result).onTermination().invoke(lease::close);
            case COMPLETION_STAGE -> asStage(result).whenComplete((item, failure) -> lease.close());
            case MULTI -> asMulti(result).onTermination().invoke(lease::close);
            case BLOCKING -> result;
        };
    }

    @SuppressWarnings("unchecked")
    private static Uni<Object> asUni(Object result) {
        return (Uni<Object>) result;
    }

    @SuppressWarnings("unchecked")
    private static CompletionStage<Object> asStage(Object result) {
        return (CompletionStage<Object>) result;
    }

    @SuppressWarnings("unchecked")
    private static Multi<Object> asMulti(Object result) {
        return (Multi<Object>) result;
    }

    private Uni<ThrottleOutcome> permitted(ThrottledMethod method, DecisionStack stack, String key,
            Context request) {
        return Admission.permitted(engine, method, stack, key, request);
    }

    /**
     * Holds the leases of a permitted reactive call: renewed and marked in its call chain until the returned type
     * terminates (item, failure or cancellation); marked on this thread too while the method body runs, since the
     * decision may complete on a context other than the caller's.
     */
    private Lease hold(ThrottleOutcome outcome, ConcurrencyLeases.Scope scope) {
        return outcome.stack().holdsLeases ? leases.hold(outcome, scope) : null;
    }

    private Object proceedHolding(InvocationContext invocation, Lease lease) throws Exception {
        if (lease == null) {
            return invocation.proceed();
        }
        ConcurrencyLeases.Scope thread = leases.threadScope();
        lease.mark(thread);
        try {
            return invocation.proceed();
        } catch (Exception | Error e) {
            lease.close();
            throw e;
        } finally {
            lease.unmark(thread);
        }
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> proceedUni(InvocationContext invocation, ThrottleOutcome outcome, ConcurrencyLeases.Scope scope) {
        return proceedReactive(invocation, outcome, scope, result -> (Uni<Object>) result);
    }

    @SuppressWarnings("unchecked")
    private Uni<Object> proceedStage(InvocationContext invocation, ThrottleOutcome outcome,
            ConcurrencyLeases.Scope scope) {
        return proceedReactive(invocation, outcome, scope,
                result -> Uni.createFrom().completionStage((CompletionStage<Object>) result));
    }

    /** Runs the method and holds its leases until the returned {@link Uni} terminates. */
    private Uni<Object> proceedReactive(InvocationContext invocation, ThrottleOutcome outcome,
            ConcurrencyLeases.Scope scope, Function<Object, Uni<Object>> asUni) {
        Lease lease = hold(outcome, scope);
        Uni<Object> result;
        try {
            result = asUni.apply(proceedHolding(invocation, lease));
        } catch (Exception e) {
            return Uni.createFrom().failure(e);
        }
        return lease != null ? result.onTermination().invoke(lease::close) : result;
    }

    @SuppressWarnings("unchecked")
    private Multi<Object> proceedMulti(InvocationContext invocation, ThrottleOutcome outcome,
            ConcurrencyLeases.Scope scope) {
        Lease lease = hold(outcome, scope);
        Multi<Object> result;
        try {
            result = (Multi<Object>) proceedHolding(invocation, lease);
        } catch (Exception e) {
            return Multi.createFrom().failure(e);
        }
        return lease != null ? result.onTermination().invoke(lease::close) : result;
    }
}
