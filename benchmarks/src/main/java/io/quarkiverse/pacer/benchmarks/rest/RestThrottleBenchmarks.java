package io.quarkiverse.pacer.benchmarks.rest;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;

/**
 * A REST method with {@code @Throttled} against the same method without it, driven over HTTP by {@code wrk} (2
 * threads, 64 keep-alive connections) in interleaved rounds: what {@code @Throttled} costs a real endpoint, Redis round
 * trip included, for a {@code String} and a {@code Uni} method, and how fast rejected requests are answered. Target: the
 * throttled endpoint serves at least 0.8× the requests per second of the plain one, with every decision made by Redis.
 */
@Singleton
public class RestThrottleBenchmarks {

    private static final Logger LOG = Logger.getLogger(RestThrottleBenchmarks.class);

    static final double TARGET = 0.8;
    private static final int THREADS = 2;
    private static final int CONNECTIONS = 64;
    private static final Duration SLICE = Duration.ofSeconds(2);

    @Inject
    Instance<ThrottleEngine> engine;

    public void run(BenchmarkContext context) throws Exception {
        int users = context.settings().distinctKeys();
        String scenarioHot = "REST GET, hot key · wrk " + CONNECTIONS + " connections";
        String scenarioUsers = String.format(Locale.ROOT, "REST GET, %,d users · wrk %d connections", users,
                CONNECTIONS);
        Optional<WrkTool> found = WrkTool.find(System.getProperty("bench.wrk", "wrk"), users);
        if (found.isEmpty()) {
            context.table().add(scenarioHot, "@Throttled").note("not measured: wrk is not on the PATH");
            return;
        }
        WrkTool wrk = found.get();
        int port = ConfigProvider.getConfig().getValue("quarkus.http.port", Integer.class);
        String base = "http://127.0.0.1:" + port + "/bench/";
        List<String> urls = List.of(base + "plain/{user}", base + "throttled/hot", base + "throttled/{user}",
                base + "plain-uni/{user}", base + "throttled-uni/hot", base + "throttled-uni/{user}",
                base + "rejected/{user}");
        String only = System.getProperty("bench.rest.profile");
        if (only != null) {
            // Profiling (e.g. with JFR): load one endpoint for the measurement time, no rows.
            String url = urls.get(List.of("plain", "hot", "users", "plain-uni", "uni-hot", "uni-users", "rejected")
                    .indexOf(only));
            LOG.infof("REST profile of %s: %s", url, wrk.run(url, THREADS, CONNECTIONS, context.settings().measure()));
            return;
        }
        LOG.infof("REST scenarios: %s", urls);
        context.flushAll();
        for (String url : urls) {
            wrk.run(url, THREADS, CONNECTIONS, SLICE);
        }
        long fallbacksBefore = fallbackDecisions();
        int rounds = Math.max(1, Math.min(3, context.settings().rounds()));
        double[] requests = new double[urls.size()];
        double[] p50 = new double[urls.size()];
        double[] p99 = new double[urls.size()];
        long[] non2xx = new long[urls.size()];
        StringBuilder socketErrors = new StringBuilder();
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < urls.size(); i++) {
                int index = round % 2 == 0 ? i : urls.size() - 1 - i;
                WrkTool.Figures figures = wrk.run(urls.get(index), THREADS, CONNECTIONS, SLICE);
                requests[index] += figures.requestsPerSecond() / rounds;
                p50[index] += figures.p50Millis() / rounds;
                p99[index] = Math.max(p99[index], figures.p99Millis());
                non2xx[index] += figures.non2xx();
                if (!figures.socketErrors().isEmpty()) {
                    socketErrors.append(figures.socketErrors()).append(' ');
                }
            }
        }
        long fallbacks = fallbackDecisions() - fallbacksBefore;
        String note = String.format(Locale.ROOT, "requests/s, mean of %d interleaved rounds of %d s; latency = one"
                + " request (p99: worst round)", rounds, SLICE.toSeconds());
        String scenarioUniHot = "REST GET, Uni method, hot key · wrk " + CONNECTIONS + " connections";
        String scenarioUniUsers = String.format(Locale.ROOT, "REST GET, Uni method, %,d users · wrk %d connections",
                users, CONNECTIONS);
        String scenarioRejected = String.format(Locale.ROOT, "REST GET, rejected (429), %,d users · wrk %d connections",
                users, CONNECTIONS);
        Row hot = row(context, scenarioHot, "@Throttled token bucket", requests[1], p50[1], p99[1], note, non2xx[1]);
        Row plainHot = row(context, scenarioHot, "the same method without @Throttled", requests[0], p50[0], p99[0],
                note, non2xx[0]).comparedTo(hot);
        Row keyed = row(context, scenarioUsers, "@Throttled token bucket, @ThrottleKey user", requests[2], p50[2],
                p99[2], note, non2xx[2]);
        Row plainUsers = row(context, scenarioUsers, "the same method without @Throttled", requests[0], p50[0],
                p99[0], note, non2xx[0]).comparedTo(keyed);
        Row uniHot = row(context, scenarioUniHot, "@Throttled token bucket", requests[4], p50[4], p99[4], note,
                non2xx[4]);
        Row plainUniHot = row(context, scenarioUniHot, "the same method without @Throttled", requests[3], p50[3],
                p99[3], note, non2xx[3]).comparedTo(uniHot);
        Row uniKeyed = row(context, scenarioUniUsers, "@Throttled token bucket, @ThrottleKey user", requests[5], p50[5],
                p99[5], note, non2xx[5]);
        Row plainUniUsers = row(context, scenarioUniUsers, "the same method without @Throttled", requests[3], p50[3],
                p99[3], note, non2xx[3]).comparedTo(uniKeyed);
        Row rejected = row(context, scenarioRejected, "@Throttled, limit reached: 429", requests[6], p50[6], p99[6],
                note, 0);
        rejected.addNote(non2xx[6] + " responses 429");
        row(context, scenarioRejected, "the plain method (200)", requests[0], p50[0], p99[0], note, non2xx[0])
                .comparedTo(rejected);
        for (Row plain : List.of(plainHot, plainUsers, plainUniHot, plainUniUsers)) {
            Double ratio = plain.pacerThroughputRatio();
            plain.target(String.format(Locale.ROOT, "@Throttled ≥ %.1f× requests/s, 0 fallbacks", TARGET),
                    ratio != null && ratio >= TARGET && fallbacks == 0);
        }
        hot.addNote(fallbacks + " fallback decisions in the measured rounds");
        if (!socketErrors.isEmpty()) {
            hot.addNote("wrk socket errors: " + socketErrors.toString().trim());
        }
        context.flushAll();
    }

    private static Row row(BenchmarkContext context, String scenario, String implementation, double requests,
            double p50, double p99, String note, long non2xx) {
        Row row = context.table().add(scenario, implementation).throughput(requests).latencies(p50, p99, Double.NaN)
                .note(note);
        if (non2xx > 0) {
            row.addNote(non2xx + " responses not 2xx");
        }
        return row;
    }

    private long fallbackDecisions() {
        return engine.isResolvable() ? engine.get().fallbackDecisions() : 0;
    }
}
