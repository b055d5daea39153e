package io.quarkiverse.pacer.runtime.throttle.limits;

import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.smallrye.mutiny.Uni;

/**
 * The in-process cache of one policy's {@link ThrottleLimitResolver} answers, by encoded key: a fresh answer costs a
 * map lookup; concurrent callers of a key the cache does not know share one resolution. A failure (the resolver threw,
 * failed, answered {@code null} or timed out) is kept as {@link #FAILED} for at most {@link #FAILURE_TTL_NANOS}, then
 * the resolver is asked again. All policies' caches share one bound on their total size.
 */
final class KeyLimitCache {

    private static final Logger LOG = Logger.getLogger(KeyLimitCache.class);

    /** The answer that stands for a failure of the resolver. */
    static final Object FAILED = new Object() {
        @Override
        public String toString() {
            return "failed";
        }
    };

    private static final long FAILURE_TTL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** One key's answer: pending until its future completes, then fresh until {@link #expiresAtNanos}. */
    private static final class Entry {
        final CompletableFuture<Object> answer = new CompletableFuture<>();
        volatile boolean done;
        volatile long expiresAtNanos;
    }

    private final String policy;
    private final ThrottleLimitResolver resolver;
    private final long ttlNanos;
    private final long failureTtlNanos;
    private final long timeoutNanos;
    private final int maxSize;
    /** Shared by every policy's cache. */
    private final AtomicInteger size;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong lastWarnNanos = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
    private final AtomicLong unlogged = new AtomicLong();

    KeyLimitCache(String policy, ThrottleLimitResolver resolver, Duration ttl, Duration timeout, int maxSize,
            AtomicInteger size) {
        this.policy = policy;
        this.resolver = resolver;
        this.ttlNanos = ttl.toNanos();
        this.failureTtlNanos = Math.min(ttlNanos, FAILURE_TTL_NANOS);
        this.timeoutNanos = timeout.toNanos();
        this.maxSize = Math.max(1, maxSize);
        this.size = size;
    }

    /** The fresh answer for the key ({@link ThrottleLimit} or {@link #FAILED}), or {@code null}: ask for it. */
    Object cached(String key) {
        Entry entry = entries.get(key);
        return entry != null && entry.done && System.nanoTime() - entry.expiresAtNanos < 0 ? entry.answer.getNow(null)
                : null;
    }

    /** The answer, resolving it on this thread (which may block) if no other caller is resolving it. */
    Object resolveBlocking(String key) {
        Object cached = cached(key);
        if (cached != null) {
            return cached;
        }
        Entry pending = new Entry();
        Entry current = claim(key, pending);
        if (current != pending) {
            return await(current, key);
        }
        Object answer;
        try {
            answer = checked(resolver.resolve(policy, key), key);
        } catch (RuntimeException e) {
            answer = failed(key, e);
        }
        complete(pending, answer);
        return answer;
    }

    /** The answer without blocking: the resolver's {@code Uni} form, bounded by the timeout. */
    Uni<Object> resolve(String key) {
        return Uni.createFrom().deferred(() -> {
            Object cached = cached(key);
            if (cached != null) {
                return Uni.createFrom().item(cached);
            }
            Entry pending = new Entry();
            Entry current = claim(key, pending);
            if (current == pending) {
                Uni<ThrottleLimit> resolved;
                try {
                    resolved = resolver.resolveAsync(policy, key);
                } catch (RuntimeException e) {
                    resolved = Uni.createFrom().failure(e);
                }
                resolved.ifNoItem().after(Duration.ofNanos(timeoutNanos)).fail()
                        .subscribe().with(limit -> complete(pending, checkedOrFailed(limit, key)),
                                failure -> complete(pending, failed(key, failure)));
            }
            return Uni.createFrom().completionStage(current.answer)
                    .ifNoItem().after(Duration.ofNanos(timeoutNanos)).recoverWithItem(() -> failed(key,
                            new TimeoutException("no answer within " + Duration.ofNanos(timeoutNanos))));
        });
    }

    /** The entry callers of the key share: {@code pending} when this caller must resolve it. */
    private Entry claim(String key, Entry pending) {
        Entry[] claimed = new Entry[1];
        entries.compute(key, (k, existing) -> {
            if (existing != null && (!existing.done || System.nanoTime() - existing.expiresAtNanos < 0)) {
                claimed[0] = existing;
                return existing;
            }
            if (existing == null && size.incrementAndGet() > maxSize) {
                size.decrementAndGet();
                // Full: resolve anyway, but keep nothing (making room happens outside this compute).
                claimed[0] = pending;
                return null;
            }
            claimed[0] = pending;
            return pending;
        });
        if (claimed[0] == pending && !entries.containsKey(key)) {
            makeRoom();
        }
        return claimed[0];
    }

    private void complete(Entry entry, Object answer) {
        entry.expiresAtNanos = System.nanoTime() + (answer == FAILED ? failureTtlNanos : ttlNanos);
        entry.done = true;
        entry.answer.complete(answer);
    }

    private Object await(Entry entry, String key) {
        try {
            return entry.answer.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(key, e);
        } catch (ExecutionException | TimeoutException e) {
            return failed(key, e);
        }
    }

    private Object checkedOrFailed(ThrottleLimit limit, String key) {
        try {
            return checked(limit, key);
        } catch (RuntimeException e) {
            return failed(key, e);
        }
    }

    private Object checked(ThrottleLimit limit, String key) {
        if (limit == null) {
            throw new IllegalStateException(resolver.getClass().getName() + " answered null");
        }
        return limit;
    }

    /** Logs a failure (at WARN at most once per policy every ten seconds) and returns {@link #FAILED}. */
    Object failed(String key, Throwable failure) {
        long now = System.nanoTime();
        long last = lastWarnNanos.get();
        if (now - last >= WARN_EVERY_NANOS && lastWarnNanos.compareAndSet(last, now)) {
            long more = unlogged.getAndSet(0);
            LOG.warnf("The ThrottleLimitResolver of throttling policy \"%s\" failed for key \"%s\": %s; the call gets"
                    + " the outcome of quarkus.pacer.throttle.limits.on-failure%s", policy, key, failure,
                    more == 0 ? "" : " (" + more + " more failures of this policy since the last such message)");
        } else {
            unlogged.incrementAndGet();
            LOG.debugf("The ThrottleLimitResolver of throttling policy \"%s\" failed for key \"%s\": %s", policy, key,
                    failure);
        }
        return FAILED;
    }

    /** Drops expired answers; when none had expired, about an eighth of this policy's answers. */
    private void makeRoom() {
        long now = System.nanoTime();
        int removed = 0;
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext();) {
            Entry entry = it.next();
            if (entry.done && now - entry.expiresAtNanos >= 0) {
                it.remove();
                size.decrementAndGet();
                removed++;
            }
        }
        int extra = removed > 0 ? 0 : Math.max(1, entries.size() / 8);
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && extra > 0; extra--) {
            if (it.next().done) {
                it.remove();
                size.decrementAndGet();
            }
        }
    }
}
