package io.quarkiverse.pacer.benchmarks.throttle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.BenchmarkSettings;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;
import io.quarkiverse.pacer.benchmarks.LoadRunner.Operation;
import io.quarkiverse.pacer.benchmarks.RedisBenchmarkTool;
import io.quarkiverse.pacer.benchmarks.ResultTable;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.benchmarks.throttle.ScriptCallCapture.CapturedCall;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * Throttling rows: for each algorithm, limit setting, key spread and caller count, the raw script through the same
 * Quarkus Redis client (the baseline), {@code @Throttled}, {@code redis-benchmark}, and the peers.
 */
@ApplicationScoped
public class ThrottleBenchmarks {

    private static final Logger LOG = Logger.getLogger(ThrottleBenchmarks.class);
    private static final String MARKER = "zqcapturezq";
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    static final double BASELINE_THROUGHPUT_TARGET = 0.8;
    static final double PEER_THROUGHPUT_TARGET = 1.5;
    static final double BASELINE_P50_TARGET = 1.25;
    /** Pacer against the minimal script over one multiplexed Lettuce connection, 64 callers, hot key. */
    static final double LETTUCE_BASELINE_TARGET = 0.7;

    @Inject
    ThrottledTargets targets;

    @Inject
    PacerRedis redis;

    @Inject
    Instance<ThrottleEngine> engine;

    public void run(BenchmarkContext context) throws Exception {
        BenchmarkSettings settings = context.settings();
        String[] hotKeys = { "hot" };
        String[] distinctKeys = new String[settings.distinctKeys()];
        for (int i = 0; i < distinctKeys.length; i++) {
            distinctKeys[i] = String.format("k%05d", i);
        }
        int[] callerCounts = { 1, settings.highConcurrency() };
        Algorithm[] algorithms = { Algorithm.TOKEN_BUCKET, Algorithm.SLIDING_LOG };

        Map<Algorithm, Map<ThrottleLimits, CapturedCall>> captured = new HashMap<>();
        for (Algorithm algorithm : algorithms) {
            captured.put(algorithm, new HashMap<>());
            for (ThrottleLimits limits : ThrottleLimits.values()) {
                CapturedCall call;
                try {
                    call = ScriptCallCapture.capture(context.port(), MARKER, () -> pacerCall(algorithm, limits,
                            MARKER));
                } catch (Exception e) {
                    LOG.warnf("No script call captured for @Throttled %s/%s (%s): its Pacer and baseline rows are"
                            + " skipped", algorithm, limits.label(), e.getMessage());
                    continue;
                }
                LOG.infof("%s/%s sends EVALSHA %s keys=%s args=%s (varying %s)", algorithm, limits.label(),
                        call.sha(), call.keys(), call.args(), call.varyingArgs());
                captured.get(algorithm).put(limits, call);
            }
        }

        String profile = System.getProperty("bench.profile");
        if (profile != null) {
            profile(context, profile, captured, hotKeys, distinctKeys);
            return;
        }

        // Rows are emitted per algorithm afterwards; each group measures both algorithms and both peers together.
        Map<Algorithm, List<Runnable>> rowsByAlgorithm = new HashMap<>();
        for (Algorithm algorithm : algorithms) {
            rowsByAlgorithm.put(algorithm, new ArrayList<>());
        }
        try (RedissonRateLimiterPeer redisson = new RedissonRateLimiterPeer(context.redisUri(),
                settings.highConcurrency());
                Bucket4jLettucePeer bucket4j = new Bucket4jLettucePeer(context.redisUri());
                MinimalLuaLettuceBaseline lettuce = new MinimalLuaLettuceBaseline(context.redisUri())) {
            List<RateLimiterPeer> peers = List.of(lettuce, redisson, bucket4j);

            jitWarmup(context, captured.get(Algorithm.TOKEN_BUCKET).get(ThrottleLimits.ADMITTED), distinctKeys, peers);

            for (ThrottleLimits limits : ThrottleLimits.values()) {
                for (boolean hot : new boolean[] { true, false }) {
                    String[] keys = hot ? hotKeys : distinctKeys;
                    for (int callers : callerCounts) {
                        String filter = System.getProperty("bench.group", "");
                        if (!filter.isEmpty() && !filter.equals(limits.label() + "," + (hot ? "hot" : "keys") + ","
                                + callers)) {
                            continue;
                        }
                        String group = String.format("%s · %s · %d caller%s", limits.label(),
                                hot ? "hot key" : keys.length + " keys", callers, callers == 1 ? "" : "s");
                        LOG.infof("Throttle scenarios: %s", group);
                        context.flushAll();
                        List<Operation> operations = new ArrayList<>();
                        List<Algorithm> measured = new ArrayList<>();
                        for (Algorithm algorithm : algorithms) {
                            CapturedCall call = captured.get(algorithm).get(limits);
                            if (call != null) {
                                measured.add(algorithm);
                                operations.add(pacerOperation(algorithm, limits, keys));
                                operations.add(baselineOperation(call, keys));
                            }
                        }
                        for (RateLimiterPeer peer : peers) {
                            peer.prepare(limits, keys);
                            operations.add((worker, sequence) -> peer.tryAcquire(keyIndex(keys.length)));
                        }
                        long fallbacksBefore = fallbackDecisions();
                        LoadResult[] results = LoadRunner.interleaved(callers, settings.warmup(), settings.measure(),
                                settings.rounds(), operations);
                        long fallbacks = fallbackDecisions() - fallbacksBefore;
                        List<LoadResult> peerFigures = List.of(results).subList(2 * measured.size(), results.length);
                        for (Algorithm algorithm : algorithms) {
                            int at = measured.indexOf(algorithm);
                            LoadResult pacer = at < 0 ? null : results[2 * at];
                            LoadResult baseline = at < 0 ? null : results[2 * at + 1];
                            Optional<RedisBenchmarkTool.Figures> raw = Optional.empty();
                            Optional<RedisBenchmarkTool.Figures> pipelined = Optional.empty();
                            if (baseline != null) {
                                CapturedCall call = captured.get(algorithm).get(limits);
                                int requests = (int) Math.max(2_000, Math.min(1_000_000, baseline.calls() / 2));
                                int keyspace = hot && call.varyingArgs().isEmpty() ? 0
                                        : (hot ? 1_000_000_000 : keys.length);
                                raw = context.redisBenchmark().run(callers, requests, keyspace,
                                        redisBenchmarkCommand(call, hot));
                                if (callers > 1) {
                                    // What Redis could do with 16 commands in flight per connection (Lettuce-style).
                                    pipelined = context.redisBenchmark().run(callers, 16, requests, keyspace,
                                            redisBenchmarkCommand(call, hot));
                                }
                            }
                            Optional<RedisBenchmarkTool.Figures> pipelinedFigures = pipelined;
                            String scenario = label(algorithm) + " · " + group;
                            Optional<RedisBenchmarkTool.Figures> rawFigures = raw;
                            rowsByAlgorithm.get(algorithm).add(() -> addRows(context.table(), scenario, hot, callers,
                                    baseline, pacer, fallbacks, rawFigures, pipelinedFigures, peers, peerFigures));
                        }
                    }
                }
            }
        }
        for (Algorithm algorithm : algorithms) {
            rowsByAlgorithm.get(algorithm).forEach(Runnable::run);
        }
        context.flushAll();
    }

    /**
     * Profiling aid: {@code -Dbench.profile=pacer|baseline,token_bucket|sliding_log,admitted|rejected,hot|keys,N}
     * runs only that operation for the measurement time (e.g. under {@code -XX:StartFlightRecording}) and logs it.
     */
    private void profile(BenchmarkContext context, String spec,
            Map<Algorithm, Map<ThrottleLimits, CapturedCall>> captured, String[] hotKeys, String[] distinctKeys) {
        String[] parts = spec.split(",");
        Algorithm algorithm = Algorithm.valueOf(parts[1].toUpperCase(Locale.ROOT));
        ThrottleLimits limits = ThrottleLimits.valueOf(parts[2].toUpperCase(Locale.ROOT));
        String[] keys = parts[3].equals("hot") ? hotKeys : distinctKeys;
        int callers = Integer.parseInt(parts[4]);
        Operation operation = parts[0].equals("pacer") ? pacerOperation(algorithm, limits, keys)
                : baselineOperation(captured.get(algorithm).get(limits), keys);
        context.flushAll();
        LoadResult result = LoadRunner.run(callers, context.settings().warmup(), context.settings().measure(),
                operation);
        LOG.infof("Profile %s: %.0f ops/s, p50 %.3f ms, p99 %.3f ms", spec, result.throughput(), result.p50Millis(),
                result.p99Millis());
    }

    private void addRows(ResultTable table, String scenario, boolean hot, int callers, LoadResult baseline,
            LoadResult pacer, long fallbacks, Optional<RedisBenchmarkTool.Figures> raw,
            Optional<RedisBenchmarkTool.Figures> pipelined, List<RateLimiterPeer> peers,
            List<LoadResult> peerFigures) {
        if (pacer == null) {
            Row pacerRow = table.add(scenario, "Pacer @Throttled").note("not measured: no script call captured");
            for (int i = 0; i < peers.size(); i++) {
                row(table, scenario, peers.get(i).name(), peerFigures.get(i));
            }
            pacerRow.target("measured", false);
            return;
        }
        Row pacerRow = row(table, scenario, "Pacer @Throttled", pacer);
        // A decision Redis never made is not a pass: the scenario group must have no fallback at all.
        pacerRow.addNote(fallbacks + " fallback decisions").target("0 fallbacks", fallbacks == 0);
        Row baselineRow = row(table, scenario, "raw script, Pacer transport", baseline).comparedTo(pacerRow);
        if (callers == 1) {
            baselineRow.target(String.format("Pacer p50 ≤ %.2f×", BASELINE_P50_TARGET),
                    baselineRow.pacerP50Ratio() != null && baselineRow.pacerP50Ratio() <= BASELINE_P50_TARGET);
        } else {
            baselineRow.target(String.format("Pacer ≥ %.1f× ops/s", BASELINE_THROUGHPUT_TARGET),
                    baselineRow.pacerThroughputRatio() != null
                            && baselineRow.pacerThroughputRatio() >= BASELINE_THROUGHPUT_TARGET);
        }
        raw.ifPresent(figures -> table.add(scenario, "redis-benchmark EVALSHA")
                .throughput(figures.requestsPerSecond())
                .latencies(figures.p50Millis(), figures.p99Millis(), figures.maxMillis())
                .note("physical limit: C client, one command in flight per connection")
                .comparedTo(pacerRow));
        pipelined.ifPresent(figures -> table.add(scenario, "redis-benchmark EVALSHA -P 16")
                .throughput(figures.requestsPerSecond())
                .latencies(figures.p50Millis(), figures.p99Millis(), figures.maxMillis())
                .note("16 commands in flight per connection: the ceiling with pipelining")
                .comparedTo(pacerRow));
        for (int i = 0; i < peers.size(); i++) {
            Row peerRow = row(table, scenario, peers.get(i).name(), peerFigures.get(i)).comparedTo(pacerRow);
            if (peers.get(i).isBaseline()) {
                if (hot && callers > 1) {
                    peerRow.target(String.format("Pacer ≥ %.1f× ops/s", LETTUCE_BASELINE_TARGET),
                            peerRow.pacerThroughputRatio() != null
                                    && peerRow.pacerThroughputRatio() >= LETTUCE_BASELINE_TARGET);
                }
            } else if (hot && callers > 1) {
                peerRow.target(String.format("Pacer ≥ %.1f× ops/s", PEER_THROUGHPUT_TARGET),
                        peerRow.pacerThroughputRatio() != null
                                && peerRow.pacerThroughputRatio() >= PEER_THROUGHPUT_TARGET);
            }
        }
    }

    private long fallbackDecisions() {
        return engine.isResolvable() ? engine.get().fallbackDecisions() : 0;
    }

    private static Row row(ResultTable table, String scenario, String implementation, LoadResult result) {
        Row row = table.add(scenario, implementation)
                .throughput(result.throughput())
                .latencies(result.p50Millis(), result.p99Millis(), result.maxMillis())
                .cpu(result.cpuMicrosPerCall())
                .note(String.format("admitted %.1f%%", result.admittedPercent()));
        if (result.errors() > 0) {
            row.addNote(result.errors() + " errors, first: " + result.firstError());
        }
        return row;
    }

    private void jitWarmup(BenchmarkContext context, CapturedCall call, String[] keys, List<RateLimiterPeer> peers)
            throws Exception {
        Duration warmup = BenchmarkSettings.jitWarmup();
        if (warmup.isZero()) {
            return;
        }
        int callers = context.settings().highConcurrency();
        LOG.infof("JIT warm-up: %s per implementation", warmup);
        context.flushAll();
        if (call != null) {
            LoadRunner.run(callers, warmup, Duration.ofMillis(1), baselineOperation(call, keys));
            LoadRunner.run(callers, warmup, Duration.ofMillis(1),
                    pacerOperation(Algorithm.TOKEN_BUCKET, ThrottleLimits.ADMITTED, keys));
        }
        for (RateLimiterPeer peer : peers) {
            peer.prepare(ThrottleLimits.ADMITTED, keys);
            LoadRunner.run(callers, warmup, Duration.ofMillis(1),
                    (worker, sequence) -> peer.tryAcquire(keyIndex(keys.length)));
        }
        context.flushAll();
    }

    private void pacerCall(Algorithm algorithm, ThrottleLimits limits, String key) {
        try {
            targets.call(algorithm, limits, key);
        } catch (ThrottledException expected) {
            // the capture needs the command, not the outcome
        }
    }

    private Operation pacerOperation(Algorithm algorithm, ThrottleLimits limits, String[] keys) {
        ThrottledTargets bean = targets;
        int size = keys.length;
        if (algorithm == Algorithm.TOKEN_BUCKET) {
            if (limits == ThrottleLimits.ADMITTED) {
                return (worker, sequence) -> {
                    try {
                        bean.tokenBucketAdmitted(keys[keyIndex(size)]);
                        return true;
                    } catch (ThrottledException e) {
                        return false;
                    }
                };
            }
            return (worker, sequence) -> {
                try {
                    bean.tokenBucketRejected(keys[keyIndex(size)]);
                    return true;
                } catch (ThrottledException e) {
                    return false;
                }
            };
        }
        if (limits == ThrottleLimits.ADMITTED) {
            return (worker, sequence) -> {
                try {
                    bean.slidingLogAdmitted(keys[keyIndex(size)]);
                    return true;
                } catch (ThrottledException e) {
                    return false;
                }
            };
        }
        return (worker, sequence) -> {
            try {
                bean.slidingLogRejected(keys[keyIndex(size)]);
                return true;
            } catch (ThrottledException e) {
                return false;
            }
        };
    }

    /**
     * The captured script call with the key swapped in and the per-call arguments renewed, run with
     * {@link PacerRedis#eval} (the same Quarkus Redis client and {@code EVALSHA} path Pacer uses) and awaited like a
     * blocking {@code @Throttled} call. Only Pacer's interception, key building and decision decoding are left out.
     */
    private Operation baselineOperation(CapturedCall call, String[] keys) {
        List<List<String>> keyLists = new ArrayList<>(keys.length);
        for (String key : keys) {
            List<String> list = new ArrayList<>(call.keys().size());
            for (String template : call.keys()) {
                list.add(template.replace(MARKER, key));
            }
            keyLists.add(List.copyOf(list));
        }
        LuaScript script = engine.isResolvable() ? engine.get().script() : null;
        if (script == null || !script.sha1().equals(call.sha())) {
            throw new IllegalStateException("Pacer sent EVALSHA " + call.sha() + " but its throttle script is "
                    + (script == null ? "not available" : script.sha1()));
        }
        List<String> template = call.args();
        int[] varying = call.varyingArgs().stream().mapToInt(Integer::intValue).sorted().toArray();
        PacerRedis client = redis;
        return (worker, sequence) -> {
            List<String> callKeys = keyLists.get(keyIndex(keyLists.size()));
            List<String> args = template;
            if (varying.length > 0) {
                args = new ArrayList<>(template);
                for (int index : varying) {
                    args.set(index, worker + "." + sequence);
                }
            }
            return admitted(client.eval(script, callKeys, args).await().atMost(CALL_TIMEOUT));
        };
    }

    private static boolean admitted(Response response) {
        if (response == null) {
            return false;
        }
        Response first = response.type() == ResponseType.MULTI ? response.get(0) : response;
        return first != null && first.toLong() == 1L;
    }

    private static List<String> redisBenchmarkCommand(CapturedCall call, boolean hot) {
        List<String> command = new ArrayList<>();
        command.add("EVALSHA");
        command.add(call.sha());
        command.add(Integer.toString(call.keys().size()));
        for (String key : call.keys()) {
            command.add(key.replace(MARKER, hot ? "hot" : "k__rand_int__"));
        }
        for (int i = 0; i < call.args().size(); i++) {
            command.add(call.varyingArgs().contains(i) ? "__rand_int__" : call.args().get(i));
        }
        return command;
    }

    private static int keyIndex(int size) {
        return size == 1 ? 0 : ThreadLocalRandom.current().nextInt(size);
    }

    private static String label(Algorithm algorithm) {
        return algorithm == Algorithm.TOKEN_BUCKET ? "token bucket" : "sliding log";
    }
}
