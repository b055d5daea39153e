package io.quarkiverse.pacer.benchmarks.throttle;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkRedisCluster;
import io.quarkiverse.pacer.benchmarks.BenchmarkSettings;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;
import io.quarkiverse.pacer.benchmarks.LoadRunner.Operation;
import io.quarkiverse.pacer.benchmarks.ResultTable;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;

/**
 * The Redis Cluster row ({@code -Dbench.only=cluster}): {@code @Throttled} token bucket (every call admitted) on
 * {@code bench.keys} keys spread over the slots of a 3-master cluster, against the minimal token-bucket script through
 * Lettuce's cluster client, interleaved in the same run; target Pacer ≥ 1.0× ops/s with no fallback.
 */
@ApplicationScoped
public class ClusterThrottleBenchmarks {

    private static final Logger LOG = Logger.getLogger(ClusterThrottleBenchmarks.class);
    /** Issue 19's target: Pacer's own per-master transport at least as fast as Lettuce's cluster client. */
    static final double LETTUCE_CLUSTER_TARGET = 1.0;

    @Inject
    ThrottledTargets targets;

    @Inject
    ThrottleEngine engine;

    public void run(BenchmarkSettings settings, List<Integer> ports, ResultTable table) throws Exception {
        String[] keys = new String[settings.distinctKeys()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = String.format("k%05d", i);
        }
        int callers = settings.highConcurrency();
        for (int port : ports) {
            BenchmarkRedisCluster.command(port, "FLUSHALL");
        }
        try (MinimalLuaLettuceClusterBaseline lettuce = new MinimalLuaLettuceClusterBaseline(
                ports.stream().map(port -> "redis://127.0.0.1:" + port).toList())) {
            lettuce.prepare(ThrottleLimits.ADMITTED, keys);
            Operation pacer = (worker, sequence) -> {
                targets.tokenBucketAdmitted(keys[ThreadLocalRandom.current().nextInt(keys.length)]);
                return true;
            };
            Operation baseline = (worker, sequence) -> lettuce
                    .tryAcquire(ThreadLocalRandom.current().nextInt(keys.length));
            Duration jit = BenchmarkSettings.jitWarmup();
            if (!jit.isZero()) {
                LOG.infof("JIT warm-up: %s per implementation", jit);
                LoadRunner.run(callers, jit, Duration.ofMillis(1), pacer);
                LoadRunner.run(callers, jit, Duration.ofMillis(1), baseline);
            }
            long fallbacksBefore = engine.fallbackDecisions();
            LoadResult[] results = LoadRunner.interleaved(callers, settings.warmup(), settings.measure(),
                    settings.rounds(), List.of(pacer, baseline));
            long fallbacks = engine.fallbackDecisions() - fallbacksBefore;
            String scenario = String.format("token bucket · admitted · %d keys · %d callers · Redis Cluster, %d masters",
                    keys.length, callers, ports.size());
            Row pacerRow = ThrottleBenchmarks.row(table, scenario, "Pacer @Throttled", results[0]);
            pacerRow.addNote(fallbacks + " fallback decisions").target("0 fallbacks", fallbacks == 0);
            Row lettuceRow = ThrottleBenchmarks.row(table, scenario, lettuce.name(), results[1]).comparedTo(pacerRow);
            ThrottleBenchmarks.throughputTarget(lettuceRow, LETTUCE_CLUSTER_TARGET);
        }
        for (int port : ports) {
            BenchmarkRedisCluster.command(port, "FLUSHALL");
        }
    }
}
