package io.quarkiverse.pacer.runtime.throttle;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * The throttle scripts, one per combination of algorithms a stack uses: the prelude, only the algorithm files the
 * stack needs, the driver, and the entry (one call, or a batch of calls), joined verbatim (see throttle-prelude.lua).
 * Redis then defines only the functions a decision runs, instead of all six algorithms on every call. Each combination
 * is joined (and hashed) once and shared.
 */
final class ThrottleScripts {

    private static final String PRELUDE = "throttle-prelude";
    private static final String DRIVER = "throttle-driver";
    private static final String SINGLE = "throttle-single";
    private static final String BATCH = "throttle-batch";

    private static final ConcurrentHashMap<Set<Algorithm>, LuaScript> BY_ALGORITHMS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Set<Algorithm>, LuaScript> BATCH_BY_ALGORITHMS = new ConcurrentHashMap<>();

    /** Every algorithm: for callers that may run any policy (tests, benchmarks, a second instance). */
    static final LuaScript ALL = of(EnumSet.allOf(Algorithm.class));

    private ThrottleScripts() {
    }

    /** The script deciding the given policies. */
    static LuaScript forPolicies(ThrottlePolicy[] policies) {
        EnumSet<Algorithm> algorithms = EnumSet.noneOf(Algorithm.class);
        for (ThrottlePolicy policy : policies) {
            algorithms.add(policy.algorithm);
        }
        return of(algorithms);
    }

    /** The script deciding policies of exactly these algorithms (joined once per distinct set). */
    static LuaScript of(Set<Algorithm> algorithms) {
        return of(algorithms, BY_ALGORITHMS, SINGLE);
    }

    /** The script deciding a batch of calls whose policies use exactly these algorithms (see throttle-batch.lua). */
    static LuaScript batchOf(Set<Algorithm> algorithms) {
        return of(algorithms, BATCH_BY_ALGORITHMS, BATCH);
    }

    /** The batch script for the given policies. */
    static LuaScript batchForPolicies(ThrottlePolicy[] policies) {
        EnumSet<Algorithm> algorithms = EnumSet.noneOf(Algorithm.class);
        for (ThrottlePolicy policy : policies) {
            algorithms.add(policy.algorithm);
        }
        return batchOf(algorithms);
    }

    private static LuaScript of(Set<Algorithm> algorithms, ConcurrentHashMap<Set<Algorithm>, LuaScript> cache,
            String entry) {
        LuaScript cached = cache.get(algorithms);
        if (cached != null) {
            return cached;
        }
        EnumSet<Algorithm> key = algorithms.isEmpty() ? EnumSet.noneOf(Algorithm.class) : EnumSet.copyOf(algorithms);
        return cache.computeIfAbsent(key, set -> join(set, entry));
    }

    private static LuaScript join(Set<Algorithm> algorithms, String entry) {
        List<String> parts = new ArrayList<>(algorithms.size() + 3);
        parts.add(PRELUDE);
        StringBuilder name = new StringBuilder(entry.equals(BATCH) ? "throttle-batch" : "throttle");
        // Enum order is the code order of the prelude's ALGORITHMS table, so a set always joins the same way.
        for (Algorithm algorithm : algorithms) {
            parts.add(file(algorithm));
            name.append('-').append(ThrottlePolicy.code(algorithm));
        }
        parts.add(DRIVER);
        parts.add(entry);
        return LuaScript.join(name.toString(), parts.toArray(new String[0]));
    }

    /** The file defining an algorithm's functions. */
    static String file(Algorithm algorithm) {
        return switch (algorithm) {
            case FIXED_WINDOW -> "throttle-fixed-window";
            case SLIDING_WINDOW -> "throttle-sliding-window";
            case SLIDING_LOG -> "throttle-sliding-log";
            case TOKEN_BUCKET -> "throttle-token-bucket";
            case LEAKY_BUCKET -> "throttle-leaky-bucket";
            case CONCURRENCY -> "throttle-concurrency";
        };
    }
}
