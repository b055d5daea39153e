package io.quarkiverse.pacer.runtime.throttle.engine;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * The local short-circuit of rejected keys: after Redis rejected a call on a (policy, key) with retry-after
 * <i>t</i>, calls on it are rejected here, with the same decision data, until <i>t</i> has passed.
 * <p>
 * It stays exact because, until its retry-after, a rejected (policy, key) can only get fuller: other calls only take
 * permits, and time frees them no sooner than the retry-after Redis computed. So:
 * <ul>
 * <li>the wait is counted from the moment the answer arrived here, after Redis computed it: never early;</li>
 * <li>a rejection of cost <i>c</i> answers calls of cost &ge; <i>c</i> only (a smaller call might fit);</li>
 * <li>a rejection answers only calls under the same limits (a key's own limit or a runtime override may change
 * them);</li>
 * <li>{@code CONCURRENCY} is never cached (a permit can come back at any moment), nor are shadow policies (they never
 * reject);</li>
 * <li>a {@code reset} removes the entry on every instance ({@link ThrottleResets}); while that channel is not known to
 * work the cache answers nothing, and a reset seen while a decision was under way keeps its answer out
 * ({@link #generation()}).</li>
 * </ul>
 * Bounded: at most {@code maxSize} entries; when full, expired entries are swept and, if still full, a new rejection
 * is simply not cached.
 */
final class RejectionCache {

    /** One cached rejection of a (policy, key). */
    record Rejection(ThrottlePolicy policy, int cost, long expiresAtNanos, long remaining, long resetAtNanos) {
    }

    private final int maxSize;
    /** A full cache is swept again after at most this long, however late its earliest entry expires. */
    private static final long MAX_SWEEP_DELAY_NANOS = 1_000_000_000L;
    /** No entry expires before this: a full cache is not swept earlier (guarded by this). */
    private long nextSweepNanos;
    /** Per policy name, per encoded key. */
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, Rejection>> byPolicy = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();
    /** Bumped by every reset seen and every change of {@link #usable}: answers older than a bump are not cached. */
    private volatile long generation;
    private volatile boolean usable;

    RejectionCache(int maxSize) {
        this.maxSize = maxSize;
        this.nextSweepNanos = System.nanoTime();
    }

    /** Whether lookups may answer: only while resets are known to reach this instance. */
    boolean usable() {
        return usable;
    }

    /** Turns the cache on (subscribed to resets) or off (not subscribed); either way it starts empty. */
    synchronized void setUsable(boolean usable) {
        generation++;
        this.usable = usable;
        clear();
    }

    /** Read before a decision is sent; {@link #remember} ignores its answer if a reset came in between. */
    long generation() {
        return generation;
    }

    int size() {
        return size.get();
    }

    /**
     * A local rejection of the call, or {@code null} when Redis must decide. Allocates nothing when nothing is cached.
     */
    ThrottleOutcome rejectLocally(DecisionStack stack, String key) {
        if (!usable || size.get() == 0) {
            return null;
        }
        ThrottlePolicy[] policies = stack.policies;
        for (int i = 0; i < policies.length; i++) {
            ThrottlePolicy policy = policies[i];
            if (!cacheable(policy)) {
                continue;
            }
            Map<String, Rejection> keys = byPolicy.get(policy.name);
            Rejection rejection = keys == null ? null : keys.get(key);
            // A rejection under other limits (the key's plan or an override changed since) says nothing about these.
            if (rejection == null || stack.costs[i] < rejection.cost() || !rejection.policy().sameLimits(policy)) {
                continue;
            }
            long now = System.nanoTime();
            if (now - rejection.expiresAtNanos() >= 0) {
                // Expired: Redis decides (the entry goes at the next sweep or is replaced).
                continue;
            }
            return outcome(stack, key, i, rejection, now);
        }
        return null;
    }

    /** Remembers the rejections of an acquire Redis answered at {@code receivedNanos}. */
    void remember(ThrottleOutcome outcome, long generationBefore, long receivedNanos) {
        DecisionStack stack = outcome.stack();
        for (int i = 0; i < stack.policies.length; i++) {
            ThrottlePolicy policy = stack.policies[i];
            long retryMicros = outcome.retryAfterMicros(i);
            if (outcome.policyAllowed(i) || !cacheable(policy) || retryMicros <= 0) {
                continue;
            }
            Rejection rejection = new Rejection(policy, stack.costs[i], receivedNanos + retryMicros * 1000,
                    outcome.remaining(i), receivedNanos + Math.max(retryMicros, outcome.resetAfterMicros(i)) * 1000);
            ConcurrentHashMap<String, Rejection> keys = byPolicy.computeIfAbsent(policy.name,
                    name -> new ConcurrentHashMap<>());
            synchronized (this) {
                if (generation != generationBefore || !usable) {
                    // A reset (or a gap in the reset channel) since the decision was sent: its answer may be stale.
                    return;
                }
                if (size.get() >= maxSize && !keys.containsKey(outcome.key())
                        && (receivedNanos - nextSweepNanos < 0 || !sweep(receivedNanos))) {
                    return;
                }
                if (keys.put(outcome.key(), rejection) == null) {
                    size.incrementAndGet();
                }
            }
        }
    }

    /** Forgets a (policy, key): a reset on some instance. */
    synchronized void reset(String policy, String key) {
        generation++;
        Map<String, Rejection> keys = byPolicy.get(policy);
        if (keys != null && keys.remove(key) != null) {
            size.decrementAndGet();
        }
    }

    synchronized void clear() {
        generation++;
        byPolicy.clear();
        size.set(0);
    }

    /**
     * Removes expired entries (called holding the lock); whether there is room now. Also notes when the earliest
     * remaining entry expires: a full cache is not swept again before then, so a full cache of long rejections costs
     * one sweep, not one per new key.
     */
    private boolean sweep(long now) {
        long earliest = now + MAX_SWEEP_DELAY_NANOS;
        for (ConcurrentHashMap<String, Rejection> keys : byPolicy.values()) {
            for (Iterator<Rejection> it = keys.values().iterator(); it.hasNext();) {
                long expiresAt = it.next().expiresAtNanos();
                if (now - expiresAt >= 0) {
                    it.remove();
                    size.decrementAndGet();
                } else if (expiresAt - earliest < 0) {
                    earliest = expiresAt;
                }
            }
        }
        nextSweepNanos = earliest;
        return size.get() < maxSize;
    }

    private static boolean cacheable(ThrottlePolicy policy) {
        return !policy.shadow && policy.algorithm != Algorithm.CONCURRENCY;
    }

    /** The rejection as Redis gave it, with retry-after and reset-after counted down (rounded up to µs). */
    private static ThrottleOutcome outcome(DecisionStack stack, String key, int rejecting, Rejection rejection,
            long now) {
        int size = stack.policies.length;
        long[] values = new long[4 * size];
        for (int i = 0; i < size; i++) {
            // The other policies were not evaluated: reported as admitting, with nothing known to be left.
            values[4 * i] = i == rejecting ? 0 : 1;
        }
        int at = 4 * rejecting;
        values[at + 1] = rejection.remaining();
        values[at + 2] = ceilMicros(rejection.expiresAtNanos() - now);
        values[at + 3] = ceilMicros(rejection.resetAtNanos() - now);
        return new ThrottleOutcome(stack, key, null, false, values, false, true);
    }

    private static long ceilMicros(long nanos) {
        return nanos <= 0 ? 0 : (nanos + 999) / 1000;
    }
}
