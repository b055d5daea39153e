package io.quarkiverse.pacer.runtime.throttle.lease;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleMode;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleOutcome;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * The {@code CONCURRENCY} leases of one permitted call while it runs: renewed every third of the shortest window (so
 * a call longer than the window keeps its permit, and a crashed instance's permit frees within one window), marked as
 * held in the caller's scope (for reentrancy), and released once by {@link #close()}.
 */
public final class Lease implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Lease.class);

    private final ConcurrencyLeases leases;
    private final ThrottleOutcome outcome;
    private final ConcurrencyLeases.Scope scope;
    private final List<String> ids = new ArrayList<>(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean renewing = new AtomicBoolean();
    private volatile boolean lost;
    private long timerId = -1;

    Lease(ConcurrencyLeases leases, ThrottleOutcome outcome, ConcurrencyLeases.Scope scope) {
        this.leases = leases;
        this.outcome = outcome;
        this.scope = scope;
        for (ThrottlePolicy policy : outcome.stack().policies) {
            if (policy.algorithm == Algorithm.CONCURRENCY) {
                ids.add(ConcurrencyLeases.id(policy, outcome.key()));
            }
        }
    }

    void start() {
        mark(scope);
        if (outcome.fallback()) {
            return; // Redis decided nothing: there is no lease to renew
        }
        long shortest = Long.MAX_VALUE;
        for (ThrottlePolicy policy : outcome.stack().policies) {
            if (policy.algorithm == Algorithm.CONCURRENCY) {
                shortest = Math.min(shortest, policy.windowMicros);
            }
        }
        long period = Math.max(1, shortest / 3000);
        synchronized (this) {
            if (!closed.get()) {
                timerId = leases.vertx().setPeriodic(period, id -> renew());
            }
        }
    }

    ThrottleOutcome outcome() {
        return outcome;
    }

    /** Whether the leases are still ours: not released, and no renewal found one expired. */
    boolean held() {
        return !closed.get() && !lost;
    }

    /** Marks the leases in another scope too, e.g. the thread running a reactive method's body. */
    public void mark(ConcurrencyLeases.Scope other) {
        if (other != null) {
            long fence = outcome.fencingToken();
            ids.forEach(id -> other.mark(id, fence));
        }
    }

    public void unmark(ConcurrencyLeases.Scope other) {
        if (other != null) {
            ids.forEach(other::unmark);
        }
    }

    private void renew() {
        if (closed.get() || !renewing.compareAndSet(false, true)) {
            return; // the previous renewal is still under way
        }
        DecisionStack stack = outcome.stack();
        ThrottleEngine engine = leases.engine();
        leases.redis().eval(stack.script, stack.keys(outcome.key()), stack.args(ThrottleMode.RENEW, outcome.token()),
                engine.timeout())
                .subscribe().with(response -> {
                    renewing.set(false);
                    if (response.get(0).toInteger() == 0 && !closed.get()) {
                        lost = true;
                        stopRenewing();
                        LOG.warnf("The CONCURRENCY lease of %s for key \"%s\" expired while its call was still running"
                                + " (the JVM or Redis was unreachable for longer than the window): another caller may"
                                + " hold it now; use a longer window", ids, outcome.key());
                    }
                }, failure -> {
                    renewing.set(false);
                    LOG.debugf("Renewing the CONCURRENCY lease of %s failed, retrying at the next period: %s", ids,
                            failure);
                });
    }

    private synchronized void stopRenewing() {
        if (timerId != -1) {
            leases.vertx().cancelTimer(timerId);
            timerId = -1;
        }
    }

    /** Stops renewing, forgets the reentrancy marks and releases the leases; only the first call acts. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stopRenewing();
        unmark(scope);
        leases.engine().release(outcome);
    }
}
