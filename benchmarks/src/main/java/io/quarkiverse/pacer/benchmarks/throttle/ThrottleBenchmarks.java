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
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
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
    /**
     * Pacer against the minimal script over one multiplexed Lettuce connection, 64 callers, hot key: token bucket with
     * batched decisions (issue 20), and sliding log (a sorted-set log against a token-bucket script).
     */
    static final double LETTUCE_BASELINE_TARGET = 1.5;
    static final double LETTUCE_BASELINE_SLIDING_LOG_TARGET = 1.0;
    /** Pacer admitted against Redisson, 64 callers, hot key: token bucket, and sliding log. */
    static final double REDISSON_ADMITTED_TARGET = 3.0;
    static final double REDISSON_ADMITTED_SLIDING_LOG_TARGET = 2.0;
    /** Pacer rejected against Bucket4j, 64 callers, hot key. */
    static final double BUCKET4J_REJECTED_TARGET = 1.5;
    /** Pacer rejected against the same call with the local short-circuit off. */
    static final double SHORT_CIRCUIT_TARGET = 10.0;
    /** Pacer's JVM CPU per decision against Redisson's, at most. */
    static final double REDISSON_CPU_TARGET = 0.5;
    /** One caller: Pacer's p50 against the Lettuce baseline's, at most: token bucket, and sliding log. */
    static final double LETTUCE_P50_TARGET = 1.0;
    static final double LETTUCE_P50_SLIDING_LOG_TARGET = 1.1;
    /** With many keys the hot-key ratios hold within this factor. */
    static final double MANY_KEYS_SLACK = 0.8;

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
        // A rejected key is otherwise answered locally after its first rejection: the capture needs Redis calls.
        setShortCircuit(false);
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
        setShortCircuit(true);

        String profile = System.getProperty("bench.profile");
        if (profile != null) {
            // Several specs separated by ';' run one after the other in this JVM, so their figures share a run.
            for (String spec : profile.split(";")) {
                profile(context, spec.trim(), captured, hotKeys, distinctKeys);
            }
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
                        // A lone caller (any caller count with -Dbench.general=true) also runs Pacer with the general
                        // script, to show the single-policy scripts' gain in the same run.
                        int perAlgorithm = (callers == 1 || Boolean.getBoolean("bench.general")) && engine.isResolvable() ? 3
                                : 2;
                        for (Algorithm algorithm : algorithms) {
                            CapturedCall call = captured.get(algorithm).get(limits);
                            if (call != null) {
                                measured.add(algorithm);
                                operations.add(pacerOperation(algorithm, limits, keys));
                                operations.add(baselineOperation(call, keys));
                                if (perAlgorithm == 3) {
                                    operations.add(generalScriptOperation(pacerOperation(algorithm, limits, keys)));
                                }
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
                        Map<Algorithm, LoadResult> shortCircuitOff = new HashMap<>();
                        if (limits == ThrottleLimits.REJECTED && callers > 1 && engine.isResolvable()) {
                            // The same rejected call with every decision sent to Redis, right after the group.
                            engine.get().shortCircuit(false);
                            try {
                                for (Algorithm algorithm : measured) {
                                    shortCircuitOff.put(algorithm, LoadRunner.run(callers, settings.warmup(),
                                            settings.measure(), pacerOperation(algorithm, limits, keys)));
                                }
                            } finally {
                                engine.get().shortCircuit(true);
                            }
                        }
                        List<LoadResult> peerFigures = List.of(results).subList(perAlgorithm * measured.size(),
                                results.length);
                        for (Algorithm algorithm : algorithms) {
                            int at = measured.indexOf(algorithm);
                            LoadResult pacer = at < 0 ? null : results[perAlgorithm * at];
                            LoadResult baseline = at < 0 ? null : results[perAlgorithm * at + 1];
                            LoadResult general = at < 0 || perAlgorithm < 3 ? null : results[perAlgorithm * at + 2];
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
                            LoadResult off = shortCircuitOff.get(algorithm);
                            rowsByAlgorithm.get(algorithm).add(() -> addRows(context.table(), scenario, limits, hot,
                                    callers, baseline, pacer, off, general, fallbacks, rawFigures, pipelinedFigures,
                                    peers, peerFigures));
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
     * Profiling aid: {@code -Dbench.profile=pacer|baseline|lettuce|redisson,token_bucket|sliding_log,admitted|rejected,
     * hot|keys,N} runs only that operation for the measurement time (e.g. under {@code -XX:StartFlightRecording}) and
     * logs it with Redis's {@code INFO commandstats} of the run ({@code lettuce}: the minimal Lua script over one
     * Lettuce connection; {@code redisson}: its {@code RRateLimiter}); several specs separated by {@code ;} run in
     * turn.
     */
    private void profile(BenchmarkContext context, String spec,
            Map<Algorithm, Map<ThrottleLimits, CapturedCall>> captured, String[] hotKeys, String[] distinctKeys) {
        String[] parts = spec.split(",");
        Algorithm algorithm = Algorithm.valueOf(parts[1].toUpperCase(Locale.ROOT));
        ThrottleLimits limits = ThrottleLimits.valueOf(parts[2].toUpperCase(Locale.ROOT));
        String[] keys = parts[3].equals("hot") ? hotKeys : distinctKeys;
        int callers = Integer.parseInt(parts[4]);
        context.flushAll();
        RateLimiterPeer peer = switch (parts[0]) {
            case "lettuce" -> new MinimalLuaLettuceBaseline(context.redisUri());
            case "redisson" -> new RedissonRateLimiterPeer(context.redisUri(), callers);
            default -> null;
        };
        try {
            Operation operation;
            if (peer != null) {
                peer.prepare(limits, keys);
                operation = (worker, sequence) -> peer.tryAcquire(keyIndex(keys.length));
            } else {
                operation = parts[0].equals("pacer") ? pacerOperation(algorithm, limits, keys)
                        : baselineOperation(captured.get(algorithm).get(limits), keys);
            }
            // Redis's own time per command of this run: INFO commandstats from zero.
            context.admin("CONFIG", "RESETSTAT");
            LoadResult result = LoadRunner.run(callers, context.settings().warmup(), context.settings().measure(),
                    operation);
            LOG.infof("Profile %s: %.0f ops/s, p50 %.3f ms, p99 %.3f ms, JVM CPU %.1f µs per call", spec,
                    result.throughput(), result.p50Millis(), result.p99Millis(), result.cpuMicrosPerCall());
            LOG.infof("Profile %s: Redis INFO commandstats:%n%s", spec, context.admin("INFO", "commandstats"));
        } catch (Exception e) {
            throw new IllegalStateException("Profile " + spec + " failed", e);
        } finally {
            if (peer != null) {
                peer.close();
            }
        }
    }

    private void addRows(ResultTable table, String scenario, ThrottleLimits limits, boolean hot, int callers,
            LoadResult baseline, LoadResult pacer, LoadResult shortCircuitOff, LoadResult generalScript, long fallbacks,
            Optional<RedisBenchmarkTool.Figures> raw,
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
        if (generalScript != null) {
            row(table, scenario, "Pacer @Throttled, general script", generalScript).comparedTo(pacerRow)
                    .addNote("the single-policy script off");
        }
        if (shortCircuitOff != null) {
            Row offRow = row(table, scenario, "Pacer @Throttled, short-circuit off", shortCircuitOff)
                    .comparedTo(pacerRow);
            throughputTarget(offRow, SHORT_CIRCUIT_TARGET * (hot ? 1 : MANY_KEYS_SLACK));
        }
        boolean rejected = limits == ThrottleLimits.REJECTED;
        double slack = hot ? 1 : MANY_KEYS_SLACK;
        boolean tokenBucket = scenario.startsWith("token bucket");
        double p50Target = tokenBucket ? LETTUCE_P50_TARGET : LETTUCE_P50_SLIDING_LOG_TARGET;
        for (int i = 0; i < peers.size(); i++) {
            RateLimiterPeer peer = peers.get(i);
            Row peerRow = row(table, scenario, peer.name(), peerFigures.get(i)).comparedTo(pacerRow);
            if (callers == 1) {
                if (peer.isBaseline()) {
                    peerRow.target(String.format("Pacer p50 ≤ %.1f×", p50Target),
                            peerRow.pacerP50Ratio() != null && peerRow.pacerP50Ratio() <= p50Target);
                }
                continue;
            }
            if (peer.isBaseline()) {
                if (!rejected) {
                    throughputTarget(peerRow,
                            (tokenBucket ? LETTUCE_BASELINE_TARGET : LETTUCE_BASELINE_SLIDING_LOG_TARGET) * slack);
                }
            } else if (peer.name().contains("Redisson")) {
                double admitted = tokenBucket ? REDISSON_ADMITTED_TARGET : REDISSON_ADMITTED_SLIDING_LOG_TARGET;
                throughputTarget(peerRow, (rejected ? PEER_THROUGHPUT_TARGET : admitted) * slack);
                double pacerCpu = pacer.cpuMicrosPerCall();
                double peerCpu = peerFigures.get(i).cpuMicrosPerCall();
                if (!rejected && hot && peerCpu > 0) {
                    peerRow.target(String.format("Pacer CPU ≤ %.1f× (%.2f×)", REDISSON_CPU_TARGET, pacerCpu / peerCpu),
                            pacerCpu / peerCpu <= REDISSON_CPU_TARGET);
                }
            } else if (peer.name().contains("Bucket4j")) {
                throughputTarget(peerRow, (rejected ? BUCKET4J_REJECTED_TARGET : PEER_THROUGHPUT_TARGET) * slack);
            } else if (hot) {
                throughputTarget(peerRow, PEER_THROUGHPUT_TARGET);
            }
        }
    }

    static void throughputTarget(Row row, double ratio) {
        row.target(String.format(Locale.ROOT, "Pacer ≥ %.1f× ops/s", ratio),
                row.pacerThroughputRatio() != null && row.pacerThroughputRatio() >= ratio);
    }

    private void setShortCircuit(boolean on) {
        if (engine.isResolvable()) {
            engine.get().shortCircuit(on);
        }
    }

    private long fallbackDecisions() {
        return engine.isResolvable() ? engine.get().fallbackDecisions() : 0;
    }

    static Row row(ResultTable table, String scenario, String implementation, LoadResult result) {
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

    /** {@code pacer} with the single-policy scripts off: one caller at a time, so the switch affects this call only. */
    private Operation generalScriptOperation(Operation pacer) {
        ThrottleEngine decisions = engine.get();
        return (worker, sequence) -> {
            decisions.singlePolicyScripts(false);
            try {
                return pacer.call(worker, sequence);
            } finally {
                decisions.singlePolicyScripts(true);
            }
        };
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
        LuaScript script = scriptWithSha(call.sha());
        if (script == null) {
            throw new IllegalStateException("Pacer sent EVALSHA " + call.sha() + " which is none of its throttle"
                    + " scripts");
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

    /**
     * The throttle script Pacer sent: the one with every algorithm, the lean one of a single algorithm, or the
     * single-policy script of an algorithm.
     */
    private LuaScript scriptWithSha(String sha) {
        if (!engine.isResolvable()) {
            return null;
        }
        List<LuaScript> candidates = new ArrayList<>();
        candidates.add(engine.get().script());
        for (Algorithm algorithm : Algorithm.values()) {
            candidates.add(engine.get().script(algorithm));
            LuaScript single = engine.get().singlePolicyScript(algorithm);
            if (single != null) {
                candidates.add(single);
            }
        }
        return candidates.stream().filter(script -> script.sha1().equals(sha)).findFirst().orElse(null);
    }

    /**
     * Whether a script call admitted: the general script's array starts with 1; a single-policy script answers a number
     * at least 0 when admitted (a negative number or a string when rejected).
     */
    private static boolean admitted(Response response) {
        if (response == null) {
            return false;
        }
        if (response.type() == ResponseType.MULTI) {
            Response first = response.get(0);
            return first != null && first.toLong() == 1L;
        }
        return response.type() == ResponseType.NUMBER && response.toLong() >= 0;
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
