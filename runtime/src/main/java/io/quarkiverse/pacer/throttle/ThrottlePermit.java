package io.quarkiverse.pacer.throttle;

/**
 * A permit of a {@link Algorithm#CONCURRENCY} policy held by the caller: a distributed lock when the policy's limit is
 * 1. While it is held, Pacer renews its lease every third of the policy's window, so work longer than the window keeps
 * it; if this instance dies, the lease expires within one window and another caller gets the permit. Release it with
 * {@link #close()}, ideally in a try-with-resources block:
 *
 * <pre>{@code
 * try (ThrottlePermit permit = throttler.acquirePermit("invoice-run", tenant)) {
 *     ledger.write(entries, permit.fencingToken()); // the ledger rejects tokens older than the last one it saw
 * } catch (ThrottledException busy) {
 *     // another instance runs it; retry after busy.retryAfter()
 * }
 * }</pre>
 *
 * A reentrant policy (by default one with limit 1) hands a caller that already holds a permit of it (the same thread,
 * or the same reactive call chain) a permit that shares the outer one's fencing token and releases nothing.
 */
public interface ThrottlePermit extends AutoCloseable {

    /**
     * The decision that granted the permit.
     *
     * @return the granting decision
     */
    ThrottleDecision decision();

    /**
     * A number that increases with every permit Redis grants for this policy and key, across all instances (it is
     * derived from Redis time and never repeats, even after the policy's state expired). Pass it along with writes to
     * other systems, which refuse writes carrying a token lower than one they already accepted: a holder that paused
     * longer than the window (and lost its lease) can then no longer overwrite its successor's work. {@code 0} when
     * the permit was granted without Redis ({@code quarkus.pacer.throttle.on-redis-failure=allow}).
     *
     * @return the fencing token
     */
    long fencingToken();

    /**
     * Whether the permit is still held: not closed, and no renewal found its lease expired (after a pause longer than
     * the window). A lost permit may be held by someone else: stop writing.
     *
     * @return whether the permit is still held
     */
    boolean isHeld();

    /** Stops renewing and releases the permit at once; calling it again does nothing. */
    @Override
    void close();
}
