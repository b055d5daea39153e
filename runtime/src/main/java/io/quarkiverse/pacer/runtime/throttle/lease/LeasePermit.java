package io.quarkiverse.pacer.runtime.throttle.lease;

import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottlePermit;

/**
 * A {@link ThrottlePermit} handed out by the programmatic API: backed by a renewed {@link Lease}, or, for a caller
 * already holding a permit of a reentrant policy, by nothing (it shares the outer permit's fencing token).
 */
final class LeasePermit implements ThrottlePermit {

    private final ThrottleDecision decision;
    private final Lease lease;
    private final long fencingToken;
    private volatile boolean closed;

    private LeasePermit(ThrottleDecision decision, Lease lease, long fencingToken) {
        this.decision = decision;
        this.lease = lease;
        this.fencingToken = fencingToken;
    }

    static LeasePermit held(Lease lease) {
        return new LeasePermit(lease.outcome().decision(0), lease, lease.outcome().fencingToken());
    }

    static LeasePermit reentrant(ThrottleDecision decision, long fencingToken) {
        return new LeasePermit(decision, null, fencingToken);
    }

    @Override
    public ThrottleDecision decision() {
        return decision;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean isHeld() {
        return lease == null ? !closed : lease.held();
    }

    @Override
    public void close() {
        closed = true;
        if (lease != null) {
            lease.close();
        }
    }

    @Override
    public String toString() {
        return "ThrottlePermit[" + decision.policy() + ", key \"" + decision.key() + "\", fencing token " + fencingToken
                + (isHeld() ? "" : ", released") + (lease == null ? ", reentrant" : "") + "]";
    }
}
