package io.quarkiverse.pacer.runtime.throttle.fallback;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

import io.quarkiverse.pacer.runtime.throttle.engine.DecisionStack;
import io.quarkiverse.pacer.runtime.throttle.lease.Lease;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;

/**
 * The in-memory stand-in for Redis while it is unreachable ({@code on-redis-failure=local}): each instance enforces
 * every policy with the same algorithm, on its own share of the limit ({@code limit / expected-instances}, at least 1).
 * <p>
 * Exact per instance, approximate across instances: with {@code expected-instances} set to the number of running
 * instances and traffic spread evenly, the total stays at or below the limit. Time is the JVM's monotonic clock.
 * One lock guards all state: this path runs only during an outage, where simplicity beats throughput.
 */
final class LocalLimiter {

    /** States are dropped when unused for this long after their window, so an outage cannot grow memory for good. */
    private static final long IDLE_MICROS = 60_000_000;
    private static final int MAX_STATES = 100_000;

    private final int instances;
    private final Map<String, State> states = new HashMap<>();
    private long lastPurgeMicros;
    /** {@code states.size()}, published for {@link #isEmpty()}. */
    private volatile int size;

    LocalLimiter(int instances) {
        this.instances = Math.max(1, instances);
    }

    /** Decides a stack all-or-nothing, as the Redis script would; the result has the script's value layout. */
    synchronized long[] decide(DecisionStack stack, String key, String token, boolean acquire) {
        long now = nowMicros();
        purge(now);
        int size = stack.policies.length;
        long[] values = new long[4 * size];
        State[] touched = new State[size];
        boolean allowed = true;
        for (int i = 0; i < size; i++) {
            ThrottlePolicy policy = stack.policies[i];
            State state = states.computeIfAbsent(policy.name + '\u0000' + key, ignored -> new State());
            state.lastUsedMicros = now;
            touched[i] = state;
            int cost = acquire ? stack.costs[i] : 1;
            long retry = state.check(policy, share(policy.limit), share(policy.burst), cost, now);
            values[4 * i] = retry == 0 ? 1 : 0;
            values[4 * i + 2] = retry;
            if (retry != 0 && !policy.shadow) {
                allowed = false;
            }
        }
        this.size = states.size();
        for (int i = 0; i < size; i++) {
            ThrottlePolicy policy = stack.policies[i];
            if (acquire && allowed && values[4 * i] == 1) {
                touched[i].commit(policy, share(policy.limit), share(policy.burst), stack.costs[i], now, token);
            }
            values[4 * i + 1] = touched[i].remaining(policy, share(policy.limit), share(policy.burst), now);
            values[4 * i + 3] = policy.windowMicros;
        }
        return values;
    }

    /** Ends the {@code CONCURRENCY} leases a locally admitted call took. */
    synchronized void release(DecisionStack stack, String key, String token) {
        for (ThrottlePolicy policy : stack.policies) {
            State state = states.get(policy.name + '\u0000' + key);
            if (state != null && state.leases != null) {
                state.leases.removeIf(lease -> lease.token.equals(token));
            }
        }
    }

    /** No state at all: read without the lock, so decisions Redis made cost nothing while there is no outage. */
    boolean isEmpty() {
        return size == 0;
    }

    /** Redis decides this key again: its state is authoritative, the local one is forgotten. */
    synchronized void forget(DecisionStack stack, String key) {
        for (ThrottlePolicy policy : stack.policies) {
            states.remove(policy.name + '\u0000' + key);
        }
        size = states.size();
    }

    private int share(int amount) {
        return Math.max(1, amount / instances);
    }

    private void purge(long now) {
        if (now - lastPurgeMicros < 1_000_000 && states.size() < MAX_STATES) {
            return;
        }
        lastPurgeMicros = now;
        for (Iterator<State> it = states.values().iterator(); it.hasNext();) {
            State state = it.next();
            if (now - state.lastUsedMicros > IDLE_MICROS || states.size() >= MAX_STATES) {
                it.remove();
            }
        }
    }

    private static long nowMicros() {
        return System.nanoTime() / 1000;
    }

    private record Lease(String token, long expiresMicros, int cost) {
    }

    /** The state of one policy and key; which fields are used depends on the algorithm. */
    private static final class State {
        long lastUsedMicros;
        long windowIndex = Long.MIN_VALUE;
        long count;
        long previousCount;
        double tokens = -1;
        long refilledMicros;
        long theoreticalArrival;
        ArrayDeque<Long> log;
        ArrayDeque<Lease> leases;

        /** 0 when {@code cost} permits are available, else the microseconds until they are (at least 1). */
        long check(ThrottlePolicy policy, int limit, int burst, int cost, long now) {
            long window = policy.windowMicros;
            switch (policy.algorithm) {
                case FIXED_WINDOW: {
                    roll(window, now);
                    return count + cost <= limit ? 0 : Math.max(1, window - now % window);
                }
                case SLIDING_WINDOW: {
                    roll(window, now);
                    double weight = (double) (window - now % window) / window;
                    double used = previousCount * weight + count;
                    return used + cost <= limit ? 0 : Math.max(1, window - now % window);
                }
                case SLIDING_LOG: {
                    expireLog(window, now);
                    if (log.size() + cost <= limit) {
                        return 0;
                    }
                    return log.isEmpty() ? window : Math.max(1, log.peekFirst() + window - now);
                }
                case TOKEN_BUCKET: {
                    refill(limit, burst, window, now);
                    if (tokens >= cost) {
                        return 0;
                    }
                    return Math.max(1, (long) Math.ceil((cost - tokens) * window / limit));
                }
                case LEAKY_BUCKET: {
                    // GCRA: each permit advances the theoretical arrival time by one emission interval.
                    double interval = (double) window / limit;
                    long tat = Math.max(theoreticalArrival, now);
                    long newTat = tat + (long) Math.ceil(interval * cost);
                    long allowAt = newTat - (long) Math.ceil(interval * burst);
                    return allowAt <= now ? 0 : Math.max(1, allowAt - now);
                }
                case CONCURRENCY: {
                    expireLeases(now);
                    int held = leases.stream().mapToInt(Lease::cost).sum();
                    if (held + cost <= limit) {
                        return 0;
                    }
                    return leases.isEmpty() ? window : Math.max(1, leases.peekFirst().expiresMicros - now);
                }
                default:
                    throw new IllegalStateException("Unknown algorithm " + policy.algorithm);
            }
        }

        void commit(ThrottlePolicy policy, int limit, int burst, int cost, long now, String token) {
            switch (policy.algorithm) {
                case FIXED_WINDOW, SLIDING_WINDOW -> count += cost;
                case SLIDING_LOG -> {
                    for (int i = 0; i < cost; i++) {
                        log.addLast(now);
                    }
                }
                case TOKEN_BUCKET -> tokens -= cost;
                case LEAKY_BUCKET -> theoreticalArrival = Math.max(theoreticalArrival, now)
                        + (long) Math.ceil((double) policy.windowMicros / limit * cost);
                case CONCURRENCY -> leases.addLast(new Lease(token, now + policy.windowMicros, cost));
            }
        }

        long remaining(ThrottlePolicy policy, int limit, int burst, long now) {
            return switch (policy.algorithm) {
                case FIXED_WINDOW -> limit - count;
                case SLIDING_WINDOW -> limit - count - (long) Math.ceil(previousCount
                        * (double) (policy.windowMicros - now % policy.windowMicros) / policy.windowMicros);
                case SLIDING_LOG -> limit - log.size();
                case TOKEN_BUCKET -> (long) Math.floor(tokens);
                case LEAKY_BUCKET -> {
                    double interval = (double) policy.windowMicros / limit;
                    long backlog = Math.max(0, theoreticalArrival - now);
                    yield Math.max(0, burst - (long) Math.ceil(backlog / interval));
                }
                case CONCURRENCY -> limit - leases.stream().mapToInt(Lease::cost).sum();
            };
        }

        private void roll(long window, long now) {
            long index = now / window;
            if (index != windowIndex) {
                previousCount = index == windowIndex + 1 ? count : 0;
                count = 0;
                windowIndex = index;
            }
        }

        private void expireLog(long window, long now) {
            if (log == null) {
                log = new ArrayDeque<>();
            }
            while (!log.isEmpty() && log.peekFirst() <= now - window) {
                log.pollFirst();
            }
        }

        private void refill(int limit, int burst, long window, long now) {
            if (tokens < 0) {
                tokens = burst;
                refilledMicros = now;
                return;
            }
            tokens = Math.min(burst, tokens + (double) (now - refilledMicros) * limit / window);
            refilledMicros = now;
        }

        private void expireLeases(long now) {
            if (leases == null) {
                leases = new ArrayDeque<>();
            }
            leases.removeIf(lease -> lease.expiresMicros <= now);
        }
    }
}
