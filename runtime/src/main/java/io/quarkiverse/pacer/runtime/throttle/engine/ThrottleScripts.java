package io.quarkiverse.pacer.runtime.throttle.engine;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottlePolicy;
import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * The throttle scripts, one per combination of algorithms a stack uses: the prelude, only the algorithm files the
 * stack needs, the driver, and the entry (one call, or a batch of calls), joined verbatim (see throttle-prelude.lua).
 * Redis then defines only the functions a decision runs, instead of all six algorithms on every call. Each combination
 * is joined (and hashed) once and shared.
 */
public final class ThrottleScripts {

    /** NOW, exact integer division and the TTL rule, first in every throttle script. */
    private static final String TIME = "throttle-time";
    private static final String PRELUDE = "throttle-prelude";
    private static final String DRIVER = "throttle-driver";
    /** parse_once, joined in front of the driver and of the single-policy batch. */
    private static final String PARSE_ONCE = "throttle-parse-once";

    /** What a script decides: one call, or a batch of calls (see decide_all in throttle-driver.lua). */
    public enum Entry {
        SINGLE("throttle", null, "throttle-single"),
        BATCH("throttle-batch", null, "throttle-batch"),
        /** A batch over several slots of one Redis Cluster master (Redis 7 or later). */
        BATCH_CROSS_SLOT("throttle-batch-cross-slot", "throttle-cross-slot", "throttle-batch-cross-slot");

        final String name;
        /** A file joined in front of the prelude: the script's flags line, which must come first. */
        final String flags;
        final String file;
        final ConcurrentHashMap<Set<Algorithm>, LuaScript> byAlgorithms = new ConcurrentHashMap<>();

        Entry(String name, String flags, String file) {
            this.name = name;
            this.flags = flags;
            this.file = file;
        }
    }

    /** Every algorithm: for callers that may run any policy (tests, benchmarks, a second instance). */
    public static final LuaScript ALL = of(EnumSet.allOf(Algorithm.class));

    private static final String SINGLE_POLICY_PRELUDE = "throttle-single-policy-prelude";
    private static final String SINGLE_POLICY_ONE = "throttle-single-policy-one";
    private static final String SINGLE_POLICY_BATCH = "throttle-single-policy-batch";
    private static final String SINGLE_POLICY_TOKEN_BUCKET_FILE = "throttle-single-policy-token-bucket";
    private static final String SINGLE_POLICY_SLIDING_LOG_FILE = "throttle-single-policy-sliding-log";
    private static final LuaScript SINGLE_POLICY_TOKEN_BUCKET = LuaScript.join("throttle-single-policy-4",
            TIME, SINGLE_POLICY_PRELUDE, SINGLE_POLICY_TOKEN_BUCKET_FILE, SINGLE_POLICY_ONE);
    private static final LuaScript SINGLE_POLICY_SLIDING_LOG = LuaScript.join("throttle-single-policy-3",
            TIME, SINGLE_POLICY_PRELUDE, SINGLE_POLICY_SLIDING_LOG_FILE, SINGLE_POLICY_ONE);
    private static final LuaScript SINGLE_POLICY_TOKEN_BUCKET_BATCH = LuaScript.join("throttle-single-policy-batch-4",
            TIME, SINGLE_POLICY_PRELUDE, SINGLE_POLICY_TOKEN_BUCKET_FILE, PARSE_ONCE, SINGLE_POLICY_BATCH);
    private static final LuaScript SINGLE_POLICY_SLIDING_LOG_BATCH = LuaScript.join("throttle-single-policy-batch-3",
            TIME, SINGLE_POLICY_PRELUDE, SINGLE_POLICY_SLIDING_LOG_FILE, PARSE_ONCE, SINGLE_POLICY_BATCH);

    private ThrottleScripts() {
    }

    /** The script of {@code entry} deciding the given policies. */
    static LuaScript forPolicies(ThrottlePolicy[] policies, Entry entry) {
        EnumSet<Algorithm> algorithms = EnumSet.noneOf(Algorithm.class);
        for (ThrottlePolicy policy : policies) {
            algorithms.add(policy.algorithm);
        }
        return of(algorithms, entry);
    }

    /** The script deciding one call whose policies use exactly these algorithms (joined once per distinct set). */
    public static LuaScript of(Set<Algorithm> algorithms) {
        return of(algorithms, Entry.SINGLE);
    }

    /** The script of {@code entry} for exactly these algorithms (joined once per distinct set). */
    public static LuaScript of(Set<Algorithm> algorithms, Entry entry) {
        LuaScript cached = entry.byAlgorithms.get(algorithms);
        if (cached != null) {
            return cached;
        }
        EnumSet<Algorithm> key = algorithms.isEmpty() ? EnumSet.noneOf(Algorithm.class) : EnumSet.copyOf(algorithms);
        return entry.byAlgorithms.computeIfAbsent(key, set -> join(set, entry));
    }

    private static LuaScript join(Set<Algorithm> algorithms, Entry entry) {
        List<String> parts = new ArrayList<>(algorithms.size() + 6);
        if (entry.flags != null) {
            parts.add(entry.flags);
        }
        parts.add(TIME);
        parts.add(PRELUDE);
        StringBuilder name = new StringBuilder(entry.name);
        // Enum order is the code order of the prelude's ALGORITHMS table, so a set always joins the same way.
        for (Algorithm algorithm : algorithms) {
            parts.add(file(algorithm));
            name.append('-').append(ThrottlePolicy.code(algorithm));
        }
        parts.add(PARSE_ONCE);
        parts.add(DRIVER);
        parts.add(entry.file);
        return LuaScript.join(name.toString(), parts.toArray(new String[0]));
    }

    /**
     * The script deciding an acquire against one policy of this algorithm alone (throttle-single-policy-prelude.lua),
     * or {@code null} when the algorithm has none and the general script decides.
     */
    public static LuaScript singlePolicy(Algorithm algorithm) {
        return switch (algorithm) {
            case TOKEN_BUCKET -> SINGLE_POLICY_TOKEN_BUCKET;
            case SLIDING_LOG -> SINGLE_POLICY_SLIDING_LOG;
            default -> null;
        };
    }

    /**
     * The script deciding a batch of acquires each against one policy of this algorithm
     * (throttle-single-policy-batch.lua), or {@code null} when the algorithm has no single-policy script.
     */
    public static LuaScript singlePolicyBatch(Algorithm algorithm) {
        return switch (algorithm) {
            case TOKEN_BUCKET -> SINGLE_POLICY_TOKEN_BUCKET_BATCH;
            case SLIDING_LOG -> SINGLE_POLICY_SLIDING_LOG_BATCH;
            default -> null;
        };
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
