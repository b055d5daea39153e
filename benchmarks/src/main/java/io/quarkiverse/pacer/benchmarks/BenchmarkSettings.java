package io.quarkiverse.pacer.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The harness knobs, read from system properties ({@code -Dbench.*}) so a run can be made longer or narrower without
 * a rebuild. Defaults keep the whole run under ten minutes on a 2-core machine.
 */
public record BenchmarkSettings(
        Duration warmup,
        Duration measure,
        int rounds,
        String only,
        int highConcurrency,
        int distinctKeys,
        int delayedConsumers,
        int lateMessages,
        Duration lateSpread,
        int stormMessages,
        Duration stormTimeout,
        long slowlogThresholdMicros,
        Path output,
        String redisServer,
        String redisBenchmark) {

    public static BenchmarkSettings fromSystemProperties() {
        return new BenchmarkSettings(
                duration("bench.warmup", "500ms"),
                duration("bench.measure", "3s"),
                Integer.getInteger("bench.rounds", 5),
                System.getProperty("bench.only", "all").toLowerCase(Locale.ROOT),
                Integer.getInteger("bench.callers", 64),
                Integer.getInteger("bench.keys", 10_000),
                Integer.getInteger("bench.delayed.consumers", 16),
                Integer.getInteger("bench.late.messages", 20_000),
                duration("bench.late.spread", "10s"),
                Integer.getInteger("bench.storm.messages", 100_000),
                duration("bench.storm.timeout", "30s"),
                Long.getLong("bench.slowlog.micros", 200),
                Path.of(System.getProperty("bench.output", "target")),
                System.getProperty("bench.redis-server", "redis-server"),
                System.getProperty("bench.redis-benchmark", "redis-benchmark"));
    }

    /** Extra warm-up, once per implementation before the first throttling scenario, so the JIT has compiled it. */
    public static Duration jitWarmup() {
        return duration("bench.jit-warmup", "2s");
    }

    /** Whether this run measures the Redis Cluster rows ({@code -Dbench.only=cluster}) and nothing else. */
    public boolean onCluster() {
        return "cluster".equals(only);
    }

    /** Whether the scenario group {@code name} ({@code throttle}, {@code delayed}) runs in this invocation. */
    public boolean runs(String name) {
        return "all".equals(only) || only.contains(name);
    }

    /** Accepts {@code 500ms}, {@code 3s}, {@code 1m} or an ISO-8601 duration. */
    public static Duration duration(String property, String defaultValue) {
        String text = System.getProperty(property, defaultValue).trim().toLowerCase(Locale.ROOT);
        try {
            if (text.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            }
            if (text.endsWith("s")) {
                return Duration.ofMillis((long) (Double.parseDouble(text.substring(0, text.length() - 1)) * 1000));
            }
            if (text.endsWith("m")) {
                return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)) * 60);
            }
            return Duration.parse(text.toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("System property " + property + "=" + text
                    + " is not a duration (use 500ms, 3s, 1m or ISO-8601)", e);
        }
    }
}
