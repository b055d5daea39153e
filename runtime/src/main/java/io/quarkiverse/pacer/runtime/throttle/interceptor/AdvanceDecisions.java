package io.quarkiverse.pacer.runtime.throttle.interceptor;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.http.RateLimitHeaders;
import io.quarkiverse.pacer.runtime.throttle.lease.ConcurrencyLeases;
import io.quarkiverse.pacer.runtime.throttle.lease.Lease;
import io.quarkiverse.pacer.throttle.OnLimit;
import io.quarkiverse.pacer.throttle.RequestKeyResolver;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * Decisions made for a {@code @Throttled} method before it is invoked, on the caller's event loop (a REST endpoint's
 * request filter, once the key is known from the request), and handed to the interceptor through the request's
 * duplicated context: the interceptor then runs that invocation without deciding again.
 */
@Singleton
public class AdvanceDecisions {

    private static final String KEY = AdvanceDecisions.class.getName();

    private final boolean enabled;
    private final ThrottleEngine engine;
    private final InterceptedMethods methods;
    private final ConcurrencyLeases leases;

    AdvanceDecisions(ThrottleEngine engine, InterceptedMethods methods, ConcurrencyLeases leases, PacerConfig config) {
        this.enabled = config.throttle().enabled();
        this.engine = engine;
        this.methods = methods;
        this.leases = leases;
    }

    /** {@code quarkus.pacer.throttle.enabled}: when {@code false}, nothing is decided in advance either. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * The resolver the method with definition index {@code methodIndex} is keyed by, which the build found to be a
     * {@link RequestKeyResolver}: the same bean the interceptor would call.
     */
    public RequestKeyResolver requestKeyResolver(int methodIndex) {
        return (RequestKeyResolver) methods.byIndex(methodIndex).resolver();
    }

    /**
     * Decides the coming invocation of the method with definition index {@code methodIndex} for {@code key}, on the
     * calling request's duplicated context, without blocking. Emits the lease the permitted call holds on its
     * {@code CONCURRENCY} policies (the caller closes it once the response is written), or {@code null}; fails with
     * {@code ThrottledException} when rejected (after the method's {@code WAIT}, if any).
     */
    public Uni<Lease> decide(int methodIndex, String key) {
        ThrottledMethod method = methods.byIndex(methodIndex);
        Context request = RateLimitHeaders.requestContext();
        if (request == null) {
            throw new IllegalStateException("@Throttled method " + method.id + " decided outside a request context");
        }
        DecisionStack cached = method.stack.cached(key);
        Uni<DecisionStack> stack = cached != null ? Uni.createFrom().item(cached) : method.stack.resolve(key);
        return stack.onItem().transformToUni(resolved -> {
            if (resolved.isEmpty()) {
                // Every policy off: the invocation runs unchecked, and is not decided again.
                request.putLocal(KEY, new Advance(method, null));
                return Uni.createFrom().nullItem();
            }
            ConcurrencyLeases.Scope scope = resolved.holdsLeases ? ConcurrencyLeases.contextScope() : null;
            Context headers = engine.headersOnSuccess() ? request : null;
            Uni<Lease> permitted = Admission.permitted(engine, method, resolved, key, headers).map(outcome -> {
                Lease lease = outcome.stack().holdsLeases ? leases.hold(outcome, scope) : null;
                request.putLocal(KEY, new Advance(method, lease));
                return lease;
            });
            // A wait on a timer completes elsewhere: the filter goes on on the request's own event loop.
            return method.onLimit == OnLimit.WAIT
                    ? permitted.emitOn(command -> request.runOnContext(ignored -> command.run()))
                    : permitted;
        });
    }

    /**
     * The decision made in advance for this invocation of {@code method}, taken out of the request's context so it
     * serves one invocation only; {@code null} when none was made (the interceptor decides).
     */
    static Advance take(ThrottledMethod method) {
        Context context = RateLimitHeaders.requestContext();
        if (context == null) {
            return null;
        }
        Object advance = context.getLocal(KEY);
        if (!(advance instanceof Advance made) || made.method != method) {
            return null;
        }
        context.removeLocal(KEY);
        return made;
    }

    /** A permitted decision waiting for its invocation, with the lease it holds, or {@code null}. */
    record Advance(ThrottledMethod method, Lease lease) {
    }
}
