package io.quarkiverse.pacer.benchmarks.throttle;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.BenchmarkSettings;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;
import io.quarkiverse.pacer.benchmarks.LoadRunner.Operation;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;

/**
 * Limits per key: the admitted token bucket with a cached {@code ThrottleLimitResolver} against the same policy
 * without one, interleaved in one run, on a hot key and on many keys; the resolver must cost at most a tenth of the
 * throughput.
 */
@ApplicationScoped
public class PlanLimitsBenchmarks {

    static final double PLANS_TARGET = 0.9;

    @Inject
    ThrottledTargets targets;

    @Inject
    PlanLimitsTargets plans;

    @Inject
    ThrottleEngine engine;

    public void run(BenchmarkContext context) {
        BenchmarkSettings settings = context.settings();
        String[] manyKeys = new String[settings.distinctKeys()];
        for (int i = 0; i < manyKeys.length; i++) {
            manyKeys[i] = String.format("p%05d", i);
        }
        for (String[] keys : List.of(new String[] { "hot" }, manyKeys)) {
            context.flushAll();
            long fallbacksBefore = engine.fallbackDecisions();
            Operation plain = (worker, sequence) -> {
                targets.tokenBucketAdmitted(pick(keys));
                return true;
            };
            Operation keyed = (worker, sequence) -> {
                plans.tokenBucketPlans(pick(keys));
                return true;
            };
            LoadResult[] results = LoadRunner.interleaved(settings.highConcurrency(), settings.warmup(),
                    settings.measure(), settings.rounds(), List.of(keyed, plain));
            long fallbacks = engine.fallbackDecisions() - fallbacksBefore;
            String scenario = String.format(Locale.ROOT, "Token bucket, admitted, %s, %d callers: limits per key",
                    keys.length == 1 ? "hot key" : keys.length + " keys", settings.highConcurrency());
            Row keyedRow = ThrottleBenchmarks.row(context.table(), scenario, "Pacer @Throttled(limits = ...), cached resolver",
                    results[0]);
            keyedRow.addNote(fallbacks + " fallback decisions").target("0 fallbacks", fallbacks == 0);
            Row plainRow = ThrottleBenchmarks.row(context.table(), scenario, "Pacer @Throttled, one limit", results[1])
                    .comparedTo(keyedRow);
            plainRow.target(String.format(Locale.ROOT, "Pacer ≥ %.1f× ops/s", PLANS_TARGET),
                    plainRow.pacerThroughputRatio() != null && plainRow.pacerThroughputRatio() >= PLANS_TARGET);
        }
    }

    private static String pick(String[] keys) {
        return keys.length == 1 ? keys[0] : keys[ThreadLocalRandom.current().nextInt(keys.length)];
    }
}
