package io.quarkiverse.pacer.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * Runs the {@code redis-benchmark} binary (when present) against the harness's redis-server: the fastest any client
 * on this machine can drive a command, i.e. the physical limit.
 */
public final class RedisBenchmarkTool {

    private static final Logger LOG = Logger.getLogger(RedisBenchmarkTool.class);

    /** Figures of one {@code redis-benchmark --csv} run. */
    public record Figures(double requestsPerSecond, double p50Millis, double p99Millis, double maxMillis) {
    }

    private final String executable;
    private final int port;
    private Boolean available;

    public RedisBenchmarkTool(String executable, int port) {
        this.executable = executable;
        this.port = port;
    }

    /**
     * Runs {@code redis-benchmark -c clients -n requests [-r keyspace] command...}; occurrences of
     * {@code __rand_int__} in the command are replaced by a random number below {@code keyspace}.
     */
    public Optional<Figures> run(int clients, int requests, int keyspace, List<String> command) {
        return run(clients, 1, requests, keyspace, command);
    }

    /** As {@link #run(int, int, int, List)}, with {@code pipeline} commands in flight per connection ({@code -P}). */
    public Optional<Figures> run(int clients, int pipeline, int requests, int keyspace, List<String> command) {
        if (Boolean.FALSE.equals(available)) {
            return Optional.empty();
        }
        List<String> cli = new ArrayList<>(List.of(executable, "-h", "127.0.0.1", "-p", Integer.toString(port),
                "-c", Integer.toString(clients), "-n", Integer.toString(requests), "-P", Integer.toString(pipeline),
                "--csv"));
        if (keyspace > 0) {
            cli.add("-r");
            cli.add(Integer.toString(keyspace));
        }
        cli.addAll(command);
        try {
            Process process = new ProcessBuilder(cli).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            available = true;
            return parse(new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            LOG.warnf("redis-benchmark rows skipped: cannot run %s (%s)", executable, e.getMessage());
            available = false;
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    static Optional<Figures> parse(String csv) {
        // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_..."
        for (String line : csv.split("\n")) {
            if (line.startsWith("\"test\"") || !line.startsWith("\"")) {
                continue;
            }
            String[] fields = line.trim().split("\",\"");
            if (fields.length < 8) {
                continue;
            }
            try {
                return Optional.of(new Figures(number(fields[1]), number(fields[4]), number(fields[6]),
                        number(fields[7])));
            } catch (NumberFormatException e) {
                LOG.warnf("Unexpected redis-benchmark line: %s", line);
            }
        }
        LOG.warnf("redis-benchmark printed no figures:%n%s", csv);
        return Optional.empty();
    }

    private static double number(String field) {
        return Double.parseDouble(field.replace("\"", ""));
    }
}
