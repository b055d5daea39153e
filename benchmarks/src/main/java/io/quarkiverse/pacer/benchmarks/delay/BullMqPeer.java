package io.quarkiverse.pacer.benchmarks.delay;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * BullMQ, the delay queue of the Node.js world, as the peer of the delayed rows, on the same redis-server: a
 * {@code node} process for the producers ({@code Queue.add} on one ioredis connection, as BullMQ applications write
 * it) and, for the delivery rows, a second one running a {@code Worker}, as BullMQ applications deploy it. When
 * {@code node} or {@code npm} is missing, or the install fails, the peer is {@link #unavailable()} and its rows say why.
 */
public final class BullMqPeer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(BullMqPeer.class);
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);
    /** Jobs per {@code addBulk} call when filling the memory row. */
    private static final int FILL_CHUNK = 1_000;

    private final String unavailable;
    private final Path directory;
    private final int redisPort;
    private final NodePeerProcess producers;
    private final String versions;

    private BullMqPeer(String unavailable, Path directory, int redisPort, NodePeerProcess producers,
            String versions) {
        this.unavailable = unavailable;
        this.directory = directory;
        this.redisPort = redisPort;
        this.producers = producers;
        this.versions = versions;
    }

    /**
     * Installs BullMQ (from {@code bench.bullmq.dir}, default {@code ../bullmq} of the working directory
     * {@code target}) and starts the producers' process; never throws: a peer that cannot run is unavailable.
     */
    public static BullMqPeer start(BenchmarkContext context) throws InterruptedException {
        Path source = Path.of(System.getProperty("bench.bullmq.dir", "../bullmq")).toAbsolutePath().normalize();
        Path directory;
        try {
            directory = BullMqInstallation.install(source, context.settings().output().resolve("bullmq"));
        } catch (BullMqInstallation.Unavailable e) {
            LOG.warnf("BullMQ rows skipped: %s", e.getMessage());
            return new BullMqPeer(e.getMessage(), null, 0, null, null);
        }
        NodePeerProcess producers = NodePeerProcess.start(directory, context.port(), "producers");
        JsonObject versions = producers.call("versions");
        String text = String.format("BullMQ %s, ioredis %s, Node %s", versions.getString("bullmq"),
                versions.getString("ioredis"), versions.getString("node"));
        LOG.infof("BullMQ peer: %s", text);
        return new BullMqPeer(null, directory, context.port(), producers, text);
    }

    /** Why the BullMQ rows are not measured, or {@code null} when they are. */
    public String unavailable() {
        return unavailable;
    }

    /** {@code BullMQ 6.7.0, ioredis 5.x, Node 20.x}. */
    public String versions() {
        return versions;
    }

    /**
     * {@code producers} concurrent {@code queue.add} loops (each awaiting its add), jobs due in {@code delay}: a
     * lead-in, then the measured window; the CPU figure is the Node process's.
     */
    public LoadResult schedule(String queue, int callers, Duration leadIn, Duration measure, Duration delay) {
        JsonObject reply = producers.call("schedule", "queue", queue, "producers", callers, "leadInMillis",
                leadIn.toMillis(), "measureMillis", measure.toMillis(), "delayMillis", delay.toMillis());
        Histogram latencies = new Histogram(TimeUnit.SECONDS.toNanos(60), 2);
        JsonArray micros = reply.getJsonArray("latencies");
        for (int i = 0; i < micros.size(); i++) {
            latencies.recordValue(Math.min(micros.getLong(i) * 1000, latencies.getHighestTrackableValue()));
        }
        long errors = reply.getLong("errors");
        return new LoadResult(callers, reply.getLong("calls"), reply.getLong("calls") - errors, errors,
                measure.toNanos() / 1e9, latencies, reply.getString("firstError"),
                reply.getLong("cpuMicros") * 1000);
    }

    /** SHA1 to name of the Lua scripts BullMQ loaded, to name its {@code EVALSHA} calls. */
    public Map<String, String> scriptNames() {
        Map<String, String> names = new HashMap<>();
        producers.call("scripts").getJsonObject("names").forEach(e -> names.put(e.getKey(), "BullMQ " + e.getValue()));
        return names;
    }

    /** Stores {@code messages} jobs carrying {@code payload}-sized data, due in {@code delay}. */
    public void fill(String queue, int messages, int payloadBytes, Duration delay) {
        producers.call("fill", "queue", queue, "messages", messages, "payloadBytes", payloadBytes, "delayMillis",
                delay.toMillis(), "chunk", FILL_CHUNK);
    }

    /** The delivery rows of {@code queue}: producers in this peer's process, a Worker in a process of its own. */
    DeliveryDriver deliveries(String queue, int concurrency) {
        NodePeerProcess worker = NodePeerProcess.start(directory, redisPort, "worker");
        worker.call("work", "queue", queue, "concurrency", concurrency);
        return new Deliveries(queue, worker);
    }

    private final class Deliveries implements DeliveryDriver {
        private final String queue;
        private final NodePeerProcess worker;

        Deliveries(String queue, NodePeerProcess worker) {
            this.queue = queue;
            this.worker = worker;
        }

        @Override
        public void startProducing(int count, Duration duration) {
            // 1 ms, the smallest BullMQ delay: the job goes through the delayed set, as every Pacer message does.
            producers.call("produce", "queue", queue, "producers", count, "durationMillis", duration.toMillis(),
                    "delayMillis", 1);
        }

        @Override
        public long scheduled() {
            return producers.call("produced").getLong("count");
        }

        @Override
        public void awaitProducers() {
            warnOfFailures(producers.call("awaitProduced"));
        }

        @Override
        public Spread scheduleSpread(int messages, int count, long leadMicros, long spreadMicros) {
            JsonObject reply = producers.call("spread", "queue", queue, "messages", messages, "producers", count,
                    "leadMicros", leadMicros, "spreadMicros", spreadMicros);
            warnOfFailures(reply);
            return new Spread(reply.getLong("baseMicros"), reply.getLong("startedMicros"),
                    reply.getLong("scheduledByMicros"));
        }

        @Override
        public long delivered() {
            return worker.call("delivered").getLong("count");
        }

        @Override
        public long early() {
            return worker.call("delivered").getLong("early");
        }

        @Override
        public Histogram lateness() {
            Histogram lateness = new Histogram(HIGHEST_MICROS, 2);
            JsonArray micros = worker.call("lateness").getJsonArray("lateness");
            for (int i = 0; i < micros.size(); i++) {
                lateness.recordValue(Math.min(micros.getLong(i), HIGHEST_MICROS));
            }
            return lateness;
        }

        @Override
        public void reset() {
            worker.call("reset");
        }

        @Override
        public long cpuNanos() {
            return (producers.call("cpu").getLong("cpuMicros") + worker.call("cpu").getLong("cpuMicros")) * 1000;
        }

        @Override
        public void close() {
            worker.close();
        }
    }

    private static void warnOfFailures(JsonObject reply) {
        if (reply.getLong("errors") > 0) {
            LOG.warnf("BullMQ producers: %d failed adds, first: %s", reply.getLong("errors"),
                    reply.getString("firstError"));
        }
    }

    @Override
    public void close() {
        if (producers != null) {
            producers.close();
        }
    }
}
