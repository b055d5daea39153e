package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.benchmarks.delay.DelayedBenchmarks;
import io.quarkiverse.pacer.benchmarks.rest.RestThrottleBenchmarks;
import io.quarkiverse.pacer.benchmarks.scheduler.SchedulerBenchmarks;
import io.quarkiverse.pacer.benchmarks.throttle.ClusterThrottleBenchmarks;
import io.quarkiverse.pacer.benchmarks.throttle.PlanLimitsBenchmarks;
import io.quarkiverse.pacer.benchmarks.throttle.ThrottleBenchmarks;
import io.quarkiverse.pacer.benchmarks.tracing.TracingCostBenchmarks;
import io.quarkus.runtime.QuarkusApplication;

/**
 * Runs every scenario group against the redis-server {@link PacerBenchmarks} started, prints the one table and
 * writes it to {@code benchmarks.md}, {@code benchmarks.csv} and {@code benchmarks.txt} in {@code bench.output}.
 * Exit code 0 even when targets are missed (the table says so); 1 when a scenario group failed to run.
 */
public class BenchmarkApplication implements QuarkusApplication {

    static final String PORT_PROPERTY = "bench.redis.port";
    /** The ports of the cluster's nodes, with {@code -Dbench.only=cluster}. */
    static final String CLUSTER_PORTS_PROPERTY = "bench.redis.cluster-ports";
    private static final Logger LOG = Logger.getLogger(BenchmarkApplication.class);

    @Inject
    ThrottleBenchmarks throttle;

    @Inject
    DelayedBenchmarks delayed;

    @Inject
    ClusterThrottleBenchmarks cluster;

    @Inject
    PlanLimitsBenchmarks plans;

    @Inject
    TracingCostBenchmarks tracing;

    @Inject
    RestThrottleBenchmarks rest;

    @Inject
    SchedulerBenchmarks scheduler;

    @Override
    public int run(String... args) throws Exception {
        BenchmarkSettings settings = BenchmarkSettings.fromSystemProperties();
        int port = Integer.getInteger(PORT_PROPERTY);
        ResultTable table = new ResultTable("Pacer benchmarks");
        List<String> failures = new ArrayList<>();
        long start = System.nanoTime();
        // Pacer traces only in the tracing group's traced runs: the other rows compare it untraced with its peers.
        tracing.switchOff();
        String redisVersion;
        try (BenchmarkContext context = new BenchmarkContext(settings, port, table)) {
            redisVersion = infoField(String.valueOf(context.admin("INFO", "server")), "redis_version");
            if (settings.runs("throttle")) {
                runGroup("throttle", "Throttling", failures, () -> throttle.run(context));
            }
            if (settings.onCluster()) {
                runGroup("cluster", "Cluster", failures, () -> {
                    List<Integer> ports = new ArrayList<>();
                    for (String node : System.getProperty(CLUSTER_PORTS_PROPERTY).split(",")) {
                        ports.add(Integer.parseInt(node));
                    }
                    cluster.run(settings, ports, table);
                });
            }
            if (settings.runs("rest")) {
                runGroup("rest", "REST", failures, () -> rest.run(context));
            }
            if (settings.runs("plans")) {
                runGroup("plans", "Limits-per-key", failures, () -> plans.run(context));
            }
            if (settings.runs("delayed")) {
                runGroup("delayed", "Delayed", failures, () -> delayed.run(context));
            }
            if (settings.runs("tracing")) {
                runGroup("tracing", "Tracing-cost", failures, () -> tracing.run(context));
            }
            if (settings.runs("scheduler")) {
                runGroup("scheduler", "Scheduler", failures, () -> scheduler.run(context));
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        String preamble = preamble(settings, redisVersion, elapsed, failures);
        String summary = targetSummary(table);
        System.out.println();
        System.out.println(preamble);
        System.out.println(table.toText());
        System.out.println(summary);
        table.write(settings.output(), "benchmarks", preamble + "\n" + summary);
        System.out.println("Written: " + settings.output().resolve("benchmarks.md") + ", "
                + settings.output().resolve("benchmarks.csv"));
        return failures.isEmpty() ? 0 : 1;
    }

    private static String preamble(BenchmarkSettings settings, String redisVersion, Duration elapsed,
            List<String> failures) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "Run %s on %s, %d cores (%s), %s %s, Java %s, redis-server %s.%n",
                Instant.now().truncatedTo(ChronoUnit.SECONDS), cpuModel(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.arch"),
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("java.version"),
                redisVersion));
        text.append(String.format(Locale.ROOT, "Warm-up %s, measurement %s per run; %d callers for the"
                + " concurrent runs; %,d distinct keys; whole run %d s. Figures are comparable only within one run:"
                + " read the ratios.%n", settings.warmup(), settings.measure(), settings.highConcurrency(),
                settings.distinctKeys(), elapsed.toSeconds()));
        text.append("Columns: ops/s = calls (or messages) per second; p50/p99/max = latency of one call, or, for"
                + " delivery rows, delivery time minus due time; Pacer÷this = Pacer's figure divided by this row's"
                + " (ops/s: higher is better for Pacer; p50: lower is better for Pacer).\n");
        for (String failure : failures) {
            text.append("FAILED: ").append(failure).append('\n');
        }
        return text.toString();
    }

    private static String targetSummary(ResultTable table) {
        int passed = 0;
        List<String> missed = new ArrayList<>();
        for (Row row : table.rows()) {
            if (row.resultText().isEmpty()) {
                continue;
            }
            for (String verdict : row.resultText().split("; ")) {
                if (verdict.equals("pass")) {
                    passed++;
                }
            }
            if (row.missed()) {
                missed.add(row.scenarioText() + " / " + row.implementationText() + ": " + row.targetText() + " → "
                        + row.resultText());
            }
        }
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "Targets: %d passed, %d rows missed%n",
                passed, missed.size()));
        for (String line : missed) {
            text.append("  MISS ").append(line).append('\n');
        }
        return text.toString();
    }

    private static String infoField(String info, String field) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        return "?";
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        return "unknown CPU";
    }

    /** One group of scenarios: its failure is logged and listed, and the other groups still run. */
    private static void runGroup(String name, String description, List<String> failures, Group group) {
        try {
            group.run();
        } catch (Exception | Error e) {
            LOG.error(description + " scenarios failed", e);
            failures.add(name + ": " + e);
        }
    }

    @FunctionalInterface
    private interface Group {
        void run() throws Exception;
    }
}
