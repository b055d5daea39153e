package io.quarkiverse.pacer.benchmarks.rest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

/**
 * Runs {@code wrk} (HTTP/1.1 load with keep-alive connections) and reads its summary: requests per second, latency
 * percentiles and errors. A URL ending in {@code {user}} is requested with a random user of {@code users} per request
 * (a small wrk Lua script), so a keyed limit sees many keys.
 */
final class WrkTool {

    private static final Logger LOG = Logger.getLogger(WrkTool.class);
    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s+(50|99)(?:\\.000)?%\\s+([0-9.]+)(us|ms|s)\\s*$",
            Pattern.MULTILINE);
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses:\\s+(\\d+)");
    private static final Pattern SOCKET_ERRORS = Pattern.compile("Socket errors:(.*)");

    record Figures(double requestsPerSecond, double p50Millis, double p99Millis, long non2xx, String socketErrors) {
    }

    private final String executable;
    private final Path script;

    private WrkTool(String executable, Path script) {
        this.executable = executable;
        this.script = script;
    }

    /** The tool, or empty when {@code wrk} is not on the PATH. */
    static Optional<WrkTool> find(String executable, int users) throws IOException {
        try {
            Process probe = new ProcessBuilder(executable, "--version").redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            probe.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return Optional.empty();
        }
        Path script = Files.createTempFile("pacer-bench-wrk", ".lua");
        script.toFile().deleteOnExit();
        Files.writeString(script, String.format(Locale.ROOT, """
                -- One random user per request, so a keyed limit sees many keys.
                math.randomseed(os.time())
                request = function()
                  return wrk.format(nil, (wrk.path:gsub("{user}", "u" .. math.random(%d))))
                end
                """, users), StandardCharsets.UTF_8);
        return Optional.of(new WrkTool(executable, script));
    }

    Figures run(String url, int threads, int connections, Duration duration) throws IOException, InterruptedException {
        List<String> cli = new ArrayList<>(List.of(executable, "-t" + threads, "-c" + connections,
                "-d" + Math.max(1, duration.toSeconds()) + "s", "--latency"));
        if (url.contains("{user}")) {
            cli.add("-s");
            cli.add(script.toString());
        }
        cli.add(url);
        Process process = new ProcessBuilder(cli).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(duration.toSeconds() + 60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("wrk failed on " + url + ":\n" + output);
        }
        Matcher rate = RATE.matcher(output);
        if (!rate.find()) {
            throw new IOException("no Requests/sec in wrk's output:\n" + output);
        }
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        Matcher percentile = PERCENTILE.matcher(output);
        while (percentile.find()) {
            double millis = millis(Double.parseDouble(percentile.group(2)), percentile.group(3));
            if (percentile.group(1).equals("50")) {
                p50 = millis;
            } else {
                p99 = millis;
            }
        }
        Matcher non2xx = NON_2XX.matcher(output);
        Matcher socket = SOCKET_ERRORS.matcher(output);
        LOG.debugf("wrk %s:%n%s", url, output);
        return new Figures(Double.parseDouble(rate.group(1)), p50, p99,
                non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0, socket.find() ? socket.group(1).trim() : "");
    }

    private static double millis(double value, String unit) {
        return switch (unit) {
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            default -> value;
        };
    }
}
