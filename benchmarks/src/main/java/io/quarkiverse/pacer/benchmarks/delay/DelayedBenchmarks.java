package io.quarkiverse.pacer.benchmarks.delay;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.HdrHistogram.Histogram;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.BenchmarkRedisServer;
import io.quarkiverse.pacer.benchmarks.BenchmarkSettings;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.devservices.common.RedisProcess;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.redis.LuaScript;

/**
 * Delayed-delivery rows, Pacer against Redisson's {@code RDelayedQueue} and BullMQ: schedule throughput, end-to-end
 * delivery throughput, lateness of messages spread over a window, and a due storm with the longest single Redis call.
 */
@ApplicationScoped
public class DelayedBenchmarks {

    private static final Logger LOG = Logger.getLogger(DelayedBenchmarks.class);

    static final double E2E_TARGET = 10_000;
    static final double LATENESS_P99_TARGET_MILLIS = 100;
    static final double LATENESS_MAX_TARGET_MILLIS = 500;
    static final double STORM_CALL_TARGET_MILLIS = 5;

    /** Producer threads of the end-to-end scenario and of bulk scheduling. */
    private static final int PRODUCERS = 16;
    /** Interleaved runs of each implementation in the end-to-end scenario, each measuring its share of the time. */
    private static final int E2E_ROUNDS = 2;

    static final String PACER_SCHEDULE = "Pacer DelayedQueue.schedule";
    static final String PACER_DELAYED = "Pacer @Delayed";
    static final String REDISSON_DELAYED = "Redisson RDelayedQueue";
    static final String BULLMQ_ADD = "BullMQ Queue.add";
    static final String BULLMQ_WORKER = "BullMQ Worker";

    @Inject
    Instance<DelayedQueue> queues;

    @Inject
    Instance<ReactiveDelayedQueue> reactiveQueues;

    private DelayedQueue queue;

    @Inject
    DeliveryRecorder recorder;

    @Inject
    DelayedBulkBenchmarks bulk;

    /** Pacer's schedule against Redisson's offer, 64 producers, with default Redis client settings (issue 20). */
    static final double SCHEDULE_PEER_TARGET = 3.0;
    /** Pacer's end-to-end delivery against Redisson's, producers not the limit (issue 20). */
    static final double E2E_PEER_TARGET = 2.5;
    /** Pacer's schedule and end-to-end delivery against BullMQ's (issue 36). */
    static final double BULLMQ_TARGET = 2.0;
    /** {@code durability=replicas} keeps this share of {@code primary}'s schedule throughput, at least. */
    static final double DURABILITY_TARGET = 0.8;

    /** Pacer's scripts, to name an EVALSHA in the slow log. */
    private static final List<LuaScript> PACER_SCRIPTS = List.of(DelayedScripts.SCHEDULE, DelayedScripts.SCHEDULE_BATCH,
            DelayedScripts.SCHEDULE_ALL, DelayedScripts.CLAIM, DelayedScripts.ACK, DelayedScripts.NACK,
            DelayedScripts.THROTTLED, DelayedScripts.RENEW, DelayedScripts.CANCEL, DelayedScripts.SIZE,
            DelayedScripts.DEAD_LETTERS, DelayedScripts.REPLAY, DelayedScripts.PURGE, DelayedScripts.DELIVER_NOW,
            DelayedScripts.WAITING, LuaScript.load("server-time"));

    private final Map<String, String> scriptNames = new HashMap<>();

    /** A way to schedule one message due at an epoch-microsecond instant. */
    @FunctionalInterface
    interface Scheduler {
        void schedule(long dueAtMicros, long sequence);
    }

    public void run(BenchmarkContext context) throws Exception {
        BenchmarkSettings settings = context.settings();
        queue = queues.isUnsatisfied() ? null : queues.get();
        for (LuaScript script : PACER_SCRIPTS) {
            scriptNames.put(script.sha1(), script.name());
        }
        if (queue == null) {
            LOG.warn("Pacer's DelayedQueue bean is missing from this build: only the peers' rows run");
        }
        try (RedissonDelayedQueuePeer redisson = new RedissonDelayedQueuePeer(context.redisUri(),
                settings.highConcurrency(), settings.delayedConsumers(), recorder);
                BullMqPeer bullmq = BullMqPeer.start(context)) {
            if (bullmq.unavailable() == null) {
                scriptNames.putAll(bullmq.scriptNames());
            }
            // Lateness and the storm size their lead time from the schedule rates, so they bring the schedule row.
            double[] scheduleRates = scenario("schedule") || scenario("lateness") || scenario("storm")
                    ? scheduleThroughput(context, redisson, bullmq)
                    : null;
            if (scenario("durability")) {
                durability(context);
            }
            if (scenario("e2e")) {
                endToEnd(context, redisson, bullmq);
            }
            if (scenario("lateness")) {
                lateness(context, redisson, bullmq, scheduleRates);
            }
            if (scenario("storm")) {
                storm(context, redisson, scheduleRates);
            }
            bulk.run(context, redisson, bullmq, scenario("bulk"), scenario("memory"));
        }
        context.flushAll();
    }

    /**
     * Whether the delayed scenario {@code name} ({@code schedule}, {@code e2e}, {@code lateness}, {@code storm},
     * {@code bulk}, {@code memory}) runs: {@code -Dbench.delayed=e2e,memory} narrows a run, e.g. for a profiler.
     */
    static boolean scenario(String name) {
        String only = System.getProperty("bench.delayed", "all").toLowerCase(Locale.ROOT);
        return only.equals("all") || List.of(only.split(",")).contains(name);
    }

    /**
     * Pacer, Redisson and BullMQ in interleaved rounds ({@code bench.rounds}), each slice on an emptied Redis; returns
     * each one's messages per second (0 when not measured).
     */
    private double[] scheduleThroughput(BenchmarkContext context, RedissonDelayedQueuePeer redisson,
            BullMqPeer bullmq) {
        BenchmarkSettings settings = context.settings();
        int callers = settings.highConcurrency();
        String scenario = "schedule, due in 1 h · " + callers + " producers";
        LOG.infof("Delayed scenario: %s", scenario);
        List<LoadRunner.Slice> slices = new ArrayList<>();
        List<ScriptWork> works = new ArrayList<>();
        try (RedissonDelayedQueuePeer.Queue delayed = redisson.queue("redisson-schedule");
                MinimalScheduleLettuceBaseline minimal = new MinimalScheduleLettuceBaseline(context.redisUri())) {
            long dueAt = DeliveryRecorder.nowMicros() + TimeUnit.HOURS.toMicros(1);
            slices.add(measured(context, works, (leadIn, window) -> LoadRunner.run(callers, leadIn, window,
                    (worker, sequence) -> {
                        delayed.schedule(dueAt, sequence);
                        return true;
                    })));
            // The best a blocking producer can do: what is left between Pacer and it is the client's own work.
            long hour = TimeUnit.HOURS.toMillis(1);
            slices.add(measured(context, works, (leadIn, window) -> LoadRunner.run(callers, leadIn, window,
                    (worker, sequence) -> {
                        minimal.schedule(worker, sequence, "payload-" + sequence, hour);
                        return true;
                    })));
            if (queue != null) {
                slices.add(measured(context, works,
                        (leadIn, window) -> LoadRunner.run(callers, leadIn, window, (worker, sequence) -> {
                            queue.schedule(DelayedConsumers.SCHEDULE_QUEUE, "payload-" + sequence, Duration.ofHours(1));
                            return true;
                        })));
                // The same call through the reactive API, awaited: what waiting on a plain future saves.
                ReactiveDelayedQueue reactive = reactiveQueues.get();
                slices.add(measured(context, works,
                        (leadIn, window) -> LoadRunner.run(callers, leadIn, window, (worker, sequence) -> {
                            reactive.schedule(DelayedConsumers.SCHEDULE_QUEUE, "payload-" + sequence, Duration.ofHours(1))
                                    .await().atMost(Duration.ofSeconds(30));
                            return true;
                        })));
            }
            if (bullmq.unavailable() == null) {
                slices.add(
                        measured(context, works, (leadIn, window) -> bullmq.schedule("bullmq-schedule", callers, leadIn, window,
                                Duration.ofHours(1))));
            }
            LoadResult[] results = LoadRunner.interleavedSlices(settings.warmup(), settings.measure(),
                    settings.rounds(), context::flushAll, slices);
            context.flushAll();
            LoadResult redissonResult = results[0];
            LoadResult minimalResult = results[1];
            LoadResult pacer = queue == null ? null : results[2];
            LoadResult reactiveResult = queue == null ? null : results[3];
            LoadResult bullmqResult = bullmq.unavailable() == null ? results[results.length - 1] : null;
            Row pacerRow = pacer == null ? missing(context, scenario, PACER_SCHEDULE, "missing from this build")
                    : loadRow(context, scenario, PACER_SCHEDULE, pacer).addNote(works.get(2).describe());
            if (reactiveResult != null) {
                loadRow(context, scenario, "Pacer ReactiveDelayedQueue.schedule, awaited", reactiveResult)
                        .addNote(works.get(3).describe()).comparedTo(pacerRow);
            }
            loadRow(context, scenario, MinimalScheduleLettuceBaseline.NAME, minimalResult)
                    .addNote(works.get(1).describe()).comparedTo(pacerRow);
            Row redissonRow = loadRow(context, scenario, "Redisson RDelayedQueue.offer", redissonResult)
                    .addNote(works.get(0).describe())
                    .comparedTo(pacerRow);
            redissonRow.target(String.format(Locale.ROOT, "Pacer ≥ %.1f× msg/s", SCHEDULE_PEER_TARGET),
                    redissonRow.pacerThroughputRatio() != null
                            && redissonRow.pacerThroughputRatio() >= SCHEDULE_PEER_TARGET);
            Row bullmqRow = bullmqResult == null ? missing(context, scenario, BULLMQ_ADD, bullmq.unavailable())
                    : loadRow(context, scenario, BULLMQ_ADD, bullmqResult)
                            .addNote(works.get(works.size() - 1).describe())
                            .addNote("CPU = the Node process's; " + bullmq.versions()).comparedTo(pacerRow);
            bullmqRow.target(String.format(Locale.ROOT, "Pacer ≥ %.1f× msg/s", BULLMQ_TARGET),
                    bullmqRow.pacerThroughputRatio() != null && bullmqRow.pacerThroughputRatio() >= BULLMQ_TARGET);
            return new double[] { pacer == null ? 0 : pacer.throughput(), redissonResult.throughput(),
                    bullmqResult == null ? 0 : bullmqResult.throughput() };
        }
    }

    /**
     * {@code schedule} with {@code durability=primary} against {@code replicas} ({@code WAIT 1} behind the writes,
     * shared by the writes that reach the master together), with a replica attached to the benchmark's Redis for these
     * rows only (replication costs the master CPU, which the other rows do not pay), in interleaved rounds.
     */
    private void durability(BenchmarkContext context) throws Exception {
        if (queue == null) {
            return;
        }
        BenchmarkSettings settings = context.settings();
        int callers = settings.highConcurrency();
        String scenario = "schedule, due in 1 h · " + callers + " producers · a replica attached";
        LOG.infof("Delayed scenario: %s", scenario);
        try (BenchmarkRedisServer replica = BenchmarkRedisServer.start(settings.redisServer(),
                List.of("--replicaof", "127.0.0.1", Integer.toString(context.port())))) {
            awaitReplicaOnline(context.port());
            List<LoadRunner.Slice> slices = List.of(
                    (leadIn, window) -> LoadRunner.run(callers, leadIn, window, (worker, sequence) -> {
                        queue.schedule(DelayedConsumers.SCHEDULE_QUEUE, "payload-" + sequence, Duration.ofHours(1));
                        return true;
                    }),
                    (leadIn, window) -> LoadRunner.run(callers, leadIn, window, (worker, sequence) -> {
                        queue.schedule(DelayedConsumers.DURABLE_SCHEDULE_QUEUE, "payload-" + sequence,
                                Duration.ofHours(1));
                        return true;
                    }));
            LoadResult[] results = LoadRunner.interleavedSlices(settings.warmup(), settings.measure(),
                    settings.rounds(), context::flushAll, slices);
            context.flushAll();
            Row primary = loadRow(context, scenario, PACER_SCHEDULE + ", durability=primary", results[0]);
            Row replicas = loadRow(context, scenario, PACER_SCHEDULE + ", durability=replicas", results[1])
                    .addNote("returns once a replica confirmed (WAIT 1)");
            double ratio = results[0].throughput() > 0 ? results[1].throughput() / results[0].throughput() : 0;
            replicas.addNote(String.format(Locale.ROOT, "%.2f× primary's msg/s", ratio))
                    .target(String.format(Locale.ROOT, "≥ %.1f× primary msg/s", DURABILITY_TARGET),
                            ratio >= DURABILITY_TARGET);
        }
    }

    /** Waits until the master on {@code port} reports a replica in state {@code online} (synchronized). */
    private static void awaitReplicaOnline(int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!RedisProcess.command(port, "INFO", "replication").contains("state=online")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The benchmark's replica did not come online within 60 s");
            }
            Thread.sleep(50);
        }
    }

    /** {@code slice}, with its Redis script work recorded in a new element of {@code works}. */
    private static LoadRunner.Slice measured(BenchmarkContext context, List<ScriptWork> works, LoadRunner.Slice slice) {
        ScriptWork work = new ScriptWork();
        works.add(work);
        return work.around(context, slice);
    }

    /**
     * Pacer, Redisson and BullMQ in {@link #E2E_ROUNDS} interleaved runs each (ABC, CBA), each run on an emptied
     * Redis and measuring its share of {@code bench.measure}; a row merges an implementation's runs.
     */
    private void endToEnd(BenchmarkContext context, RedissonDelayedQueuePeer redisson, BullMqPeer bullmq)
            throws Exception {
        BenchmarkSettings settings = context.settings();
        String scenario = "end-to-end no-op, due now · " + PRODUCERS + " producers, " + settings.delayedConsumers()
                + " consumers";
        LOG.infof("Delayed scenario: %s", scenario);
        context.flushAll();
        Duration measure = settings.measure().dividedBy(E2E_ROUNDS);
        List<String> names = new ArrayList<>();
        List<DeliveryDriver> drivers = new ArrayList<>();
        try (RedissonDelayedQueuePeer.Queue delayed = redisson.queue("redisson-e2e");
                DeliveryDriver bullmqDeliveries = bullmq.unavailable() == null
                        ? bullmq.deliveries("bullmq-e2e", settings.delayedConsumers())
                        : null) {
            if (queue != null) {
                names.add(PACER_DELAYED);
                drivers.add(new RecordedDeliveries((dueAt, sequence) -> queue
                        .schedule(DelayedConsumers.E2E_QUEUE, "payload-" + sequence, Duration.ZERO), recorder));
            }
            delayed.startConsumers();
            names.add(REDISSON_DELAYED);
            drivers.add(new RecordedDeliveries(delayed::schedule, recorder));
            if (bullmqDeliveries != null) {
                names.add(BULLMQ_WORKER);
                drivers.add(bullmqDeliveries);
            }
            EndToEndRun[] runs = new EndToEndRun[drivers.size()];
            for (int round = 0; round < E2E_ROUNDS; round++) {
                for (int i = 0; i < drivers.size(); i++) {
                    int index = round % 2 == 0 ? i : drivers.size() - 1 - i;
                    EndToEndRun run = endToEndRun(context, scenario, names.get(index), drivers.get(index), measure);
                    runs[index] = runs[index] == null ? run : runs[index].plus(run);
                }
            }
            Row pacerRow = queue == null ? missing(context, scenario, PACER_DELAYED, "missing from this build")
                    : endToEndRow(context, scenario, PACER_DELAYED, runs[0]);
            pacerRow.target(String.format(Locale.ROOT, "≥ %,.0f msg/s", E2E_TARGET),
                    pacerRow.throughputValue() != null && pacerRow.throughputValue() >= E2E_TARGET);
            Row redissonRow = endToEndRow(context, scenario, REDISSON_DELAYED, runs[names.indexOf(REDISSON_DELAYED)])
                    .comparedTo(pacerRow);
            redissonRow.target(String.format(Locale.ROOT, "Pacer ≥ %.1f× msg/s", E2E_PEER_TARGET),
                    redissonRow.pacerThroughputRatio() != null && redissonRow.pacerThroughputRatio() >= E2E_PEER_TARGET);
            Row bullmqRow = bullmqDeliveries == null ? missing(context, scenario, BULLMQ_WORKER, bullmq.unavailable())
                    : endToEndRow(context, scenario, BULLMQ_WORKER, runs[names.indexOf(BULLMQ_WORKER)])
                            .addNote("jobs added with a 1 ms delay (through BullMQ's delayed set); Worker concurrency "
                                    + settings.delayedConsumers() + " in a second Node process")
                            .comparedTo(pacerRow);
            bullmqRow.target(String.format(Locale.ROOT, "Pacer ≥ %.1f× msg/s", BULLMQ_TARGET),
                    bullmqRow.pacerThroughputRatio() != null && bullmqRow.pacerThroughputRatio() >= BULLMQ_TARGET);
        }
        context.flushAll();
    }

    /** One implementation's end-to-end runs, merged: deliveries and scheduling in the measured windows. */
    private record EndToEndRun(long delivered, long scheduled, double seconds, long cpuNanos, List<Long> backlogs,
            Histogram lateness, CallCensus census, long expected, long finallyDelivered) {

        EndToEndRun plus(EndToEndRun other) {
            Histogram sum = lateness.copy();
            sum.add(other.lateness);
            List<Long> both = new ArrayList<>(backlogs);
            both.addAll(other.backlogs);
            return new EndToEndRun(delivered + other.delivered, scheduled + other.scheduled, seconds + other.seconds,
                    cpuNanos + other.cpuNanos, both, sum, census.plus(other.census), expected + other.expected,
                    finallyDelivered + other.finallyDelivered);
        }
    }

    private static Row endToEndRow(BenchmarkContext context, String scenario, String implementation,
            EndToEndRun run) {
        Row row = context.table().add(scenario, implementation)
                .throughput(run.delivered() / run.seconds())
                .latencies(run.lateness().getValueAtPercentile(50) / 1e3,
                        run.lateness().getValueAtPercentile(99) / 1e3, run.lateness().getMaxValue() / 1e3)
                .cpu(run.cpuNanos() / 1e3 / Math.max(1, run.delivered()))
                .note(String.format(Locale.ROOT, "delivered msg/s; latency = schedule to delivery; CPU per delivered"
                        + " msg of the processes producing and consuming; scheduled %,.0f/s;"
                        + " backlog at end of each run %s; Redis calls per delivered msg: %s",
                        run.scheduled() / run.seconds(), run.backlogs(), run.census().describe()));
        if (run.finallyDelivered() < run.expected()) {
            row.addNote(String.format("only %,d of %,d delivered within 60 s", run.finallyDelivered(),
                    run.expected()));
        }
        return row;
    }

    /**
     * Producers schedule messages due immediately for warm-up plus measurement; the run counts deliveries during the
     * measurement window, and its latencies are the time from due (= scheduling) to delivery.
     */
    private EndToEndRun endToEndRun(BenchmarkContext context, String scenario, String implementation,
            DeliveryDriver driver, Duration measure) throws Exception {
        BenchmarkSettings settings = context.settings();
        context.flushAll();
        driver.reset();
        Duration census = Duration.ofSeconds(1);
        driver.startProducing(PRODUCERS, settings.warmup().plus(measure).plus(census));
        Thread.sleep(settings.warmup().toMillis());
        context.admin("CONFIG", "RESETSTAT");
        long count1 = driver.delivered();
        long scheduled1 = driver.scheduled();
        long cpu1 = driver.cpuNanos();
        long t1 = System.nanoTime();
        Thread.sleep(measure.toMillis());
        long count2 = driver.delivered();
        long scheduled2 = driver.scheduled();
        long cpu2 = driver.cpuNanos();
        long t2 = System.nanoTime();
        // Redis's own time per command during the measurement (usec_per_call), for the profile of delivery.
        LOG.infof("%s, %s: %,d delivered; Redis INFO commandstats of the measurement:%n%s", scenario, implementation,
                count2 - count1, context.admin("INFO", "commandstats"));
        long backlog = scheduled2 - count2;
        // A census of every Redis call for one more second (outside the measured window: logging costs Redis time).
        context.admin("CONFIG", "SET", "slowlog-max-len", "1000000");
        context.admin("CONFIG", "SET", "slowlog-log-slower-than", "0");
        context.admin("SLOWLOG", "RESET");
        long census1 = driver.delivered();
        Thread.sleep(census.toMillis());
        long census2 = driver.delivered();
        List<Object> calls = context.slowlog();
        context.admin("CONFIG", "SET", "slowlog-log-slower-than", "10000");
        CallCensus callCensus = CallCensus.of(calls, census2 - census1, scriptNames);
        driver.awaitProducers();
        long expected = driver.scheduled();
        awaitDeliveries(driver::delivered, expected, Duration.ofSeconds(60));
        return new EndToEndRun(count2 - count1, scheduled2 - scheduled1, (t2 - t1) / 1e9, cpu2 - cpu1, List.of(backlog),
                driver.lateness().copy(), callCensus, expected, driver.delivered());
    }

    private void lateness(BenchmarkContext context, RedissonDelayedQueuePeer redisson, BullMqPeer bullmq,
            double[] scheduleRates) throws Exception {
        BenchmarkSettings settings = context.settings();
        int messages = settings.lateMessages();
        Duration spread = settings.lateSpread();
        String scenario = String.format(Locale.ROOT, "lateness, %,d msgs due within %d s", messages,
                spread.toSeconds());
        LOG.infof("Delayed scenario: %s", scenario);
        context.flushAll();
        Row pacerRow = queue == null ? missing(context, scenario, PACER_DELAYED, "missing from this build")
                : latenessRow(context, scenario, PACER_DELAYED, messages, spread, scheduleRates[0],
                        new RecordedDeliveries((dueAt, sequence) -> queue.schedule(DelayedConsumers.LATENESS_QUEUE,
                                "payload-" + sequence, toInstant(dueAt)), recorder));
        pacerRow.target(String.format(Locale.ROOT, "p99 ≤ %.0f ms", LATENESS_P99_TARGET_MILLIS),
                pacerRow.p99Value() != null && pacerRow.p99Value() <= LATENESS_P99_TARGET_MILLIS);
        pacerRow.target(String.format(Locale.ROOT, "max ≤ %.0f ms", LATENESS_MAX_TARGET_MILLIS),
                pacerRow.maxValue() != null && pacerRow.maxValue() <= LATENESS_MAX_TARGET_MILLIS);
        context.flushAll();
        try (RedissonDelayedQueuePeer.Queue delayed = redisson.queue("redisson-lateness")) {
            delayed.startConsumers();
            latenessRow(context, scenario, REDISSON_DELAYED, messages, spread, scheduleRates[1],
                    new RecordedDeliveries(delayed::schedule, recorder)).comparedTo(pacerRow);
        }
        context.flushAll();
        if (bullmq.unavailable() != null) {
            missing(context, scenario, BULLMQ_WORKER, bullmq.unavailable());
            return;
        }
        try (DeliveryDriver deliveries = bullmq.deliveries("bullmq-lateness", settings.delayedConsumers())) {
            latenessRow(context, scenario, BULLMQ_WORKER, messages, spread, scheduleRates[2], deliveries)
                    .comparedTo(pacerRow);
        }
        context.flushAll();
    }

    private Row latenessRow(BenchmarkContext context, String scenario, String implementation, int messages,
            Duration spread, double scheduleRate, DeliveryDriver driver) throws Exception {
        driver.reset();
        long spreadMicros = spread.toNanos() / 1000;
        DeliveryDriver.Spread timing = driver.scheduleSpread(messages, PRODUCERS, leadMicros(messages, scheduleRate),
                spreadMicros);
        boolean all = awaitDeliveries(driver::delivered, messages, Duration.of(
                Math.max(0, timing.firstDueMicros() + spreadMicros - timing.scheduledByMicros()), ChronoUnit.MICROS)
                .plusSeconds(60));
        Histogram lateness = driver.lateness();
        Row row = context.table().add(scenario, implementation)
                .latencies(lateness.getValueAtPercentile(50) / 1e3, lateness.getValueAtPercentile(99) / 1e3,
                        lateness.getMaxValue() / 1e3)
                .note(String.format(Locale.ROOT, "latency = delivery minus due time; scheduled in %.1f s, %.1f s"
                        + " before the first due time",
                        (timing.scheduledByMicros() - timing.startedMicros()) / 1e6,
                        (timing.firstDueMicros() - timing.scheduledByMicros()) / 1e6));
        long early = driver.early();
        if (early > 0) {
            row.addNote(early + " delivered early");
        }
        if (!all) {
            row.addNote(String.format("only %,d of %,d delivered", driver.delivered(), messages));
        }
        return row;
    }

    private void storm(BenchmarkContext context, RedissonDelayedQueuePeer redisson, double[] scheduleRates)
            throws Exception {
        BenchmarkSettings settings = context.settings();
        int messages = settings.stormMessages();
        String scenario = String.format(Locale.ROOT, "due storm, %,d msgs with one due time", messages);
        LOG.infof("Delayed scenario: %s", scenario);
        context.flushAll();
        StormRowResult pacer = queue == null
                ? new StormRowResult(missing(context, scenario, PACER_DELAYED, "missing from this build"), null)
                : stormRow(context, scenario, "Pacer @Delayed", messages, scheduleRates[0],
                        (dueAt, sequence) -> queue.schedule(DelayedConsumers.STORM_QUEUE, "payload-" + sequence,
                                toInstant(dueAt)));
        Double longest = pacer.longestCallMillis();
        pacer.row().target(String.format(Locale.ROOT, "longest Redis call ≤ %.0f ms", STORM_CALL_TARGET_MILLIS),
                longest != null && longest <= STORM_CALL_TARGET_MILLIS);
        context.flushAll();
        try (RedissonDelayedQueuePeer.Queue delayed = redisson.queue("redisson-storm")) {
            delayed.startConsumers();
            stormRow(context, scenario, "Redisson RDelayedQueue", messages, scheduleRates[1], delayed::schedule)
                    .row().comparedTo(pacer.row());
        }
        context.flushAll();
    }

    private StormRowResult stormRow(BenchmarkContext context, String scenario, String implementation, int messages,
            double scheduleRate, Scheduler scheduler) throws Exception {
        BenchmarkSettings settings = context.settings();
        recorder.reset();
        context.admin("CONFIG", "SET", "slowlog-max-len", "1000000");
        long lead = leadMicros(messages, scheduleRate);
        long due = DeliveryRecorder.nowMicros() + lead;
        long scheduling = RecordedDeliveries.parallel(messages, PRODUCERS,
                sequence -> scheduler.schedule(due, sequence));
        long scheduledBy = DeliveryRecorder.nowMicros();
        // Only the drain is of interest: start the slow log now, after the producers are done.
        context.admin("CONFIG", "SET", "slowlog-log-slower-than", Long.toString(settings.slowlogThresholdMicros()));
        context.admin("SLOWLOG", "RESET");
        boolean all = awaitDeliveries(recorder::count, messages, Duration.of(Math.max(0, due - scheduledBy), ChronoUnit.MICROS)
                .plus(settings.stormTimeout()));
        List<Object> slowlog = context.slowlog();
        context.admin("CONFIG", "SET", "slowlog-log-slower-than", "10000");
        SlowCall longest = longestCall(slowlog);
        long overTarget = countOver(slowlog, (long) (STORM_CALL_TARGET_MILLIS * 1000));
        double drainSeconds = Math.max(1, recorder.lastDeliveryMicros() - Math.max(due, scheduledBy)) / 1e6;
        Histogram lateness = recorder.lateness();
        Row row = context.table().add(scenario, implementation)
                .throughput(recorder.count() / drainSeconds)
                .latencies(lateness.getValueAtPercentile(50) / 1e3, lateness.getValueAtPercentile(99) / 1e3,
                        lateness.getMaxValue() / 1e3)
                .note(String.format(Locale.ROOT, "drain msg/s; latency = delivery minus due time; longest Redis call"
                        + " %s; %d calls > %.0f ms; %d slow-log entries ≥ %d µs", longest.describe(), overTarget,
                        STORM_CALL_TARGET_MILLIS, slowlog.size(), settings.slowlogThresholdMicros()));
        if (scheduledBy > due) {
            row.addNote(String.format(Locale.ROOT, "scheduling (%.1f s) overran the due time by %.1f s",
                    scheduling / 1e6, (scheduledBy - due) / 1e6));
        }
        if (!all) {
            row.addNote(String.format(Locale.ROOT, "only %,d of %,d delivered within %d s of the due time (cut off:"
                    + " bench.storm.timeout)", recorder.count(), messages, settings.stormTimeout().toSeconds()));
        }
        return new StormRowResult(row, longest.micros() < 0 ? null : longest.micros() / 1000.0);
    }

    private record StormRowResult(Row row, Double longestCallMillis) {
    }

    private record SlowCall(long micros, String command, String distribution) {
        String describe() {
            if (micros < 0) {
                return "none logged";
            }
            return String.format(Locale.ROOT, "%.2f ms (%s%s)", micros / 1000.0, command, distribution);
        }
    }

    @SuppressWarnings("unchecked")
    private SlowCall longestCall(List<Object> slowlog) {
        SlowCall longest = new SlowCall(-1, "", "");
        Map<String, List<Long>> byCommand = new HashMap<>();
        for (Object entry : slowlog) {
            List<Object> fields = (List<Object>) entry;
            long micros = (Long) fields.get(2);
            List<Object> args = (List<Object>) fields.get(3);
            String command = args.isEmpty() ? "?" : String.valueOf(args.get(0));
            if (CallCensus.isHarnessCommand(command)) {
                continue;
            }
            String name = command.toUpperCase(Locale.ROOT);
            if (args.size() > 1 && name.equals("EVALSHA")) {
                name = scriptNames.getOrDefault(String.valueOf(args.get(1)), name);
            }
            byCommand.computeIfAbsent(name, n -> new ArrayList<>()).add(micros);
            if (micros > longest.micros()) {
                String detail = command;
                if (args.size() > 1 && command.equalsIgnoreCase("EVALSHA")) {
                    String sha = String.valueOf(args.get(1));
                    detail = "EVALSHA " + scriptNames.getOrDefault(sha, sha.substring(0, Math.min(8, sha.length())));
                    if (args.size() > 3 && !"0".equals(String.valueOf(args.get(2)))) {
                        detail += " " + args.get(3);
                    }
                } else if (args.size() > 1) {
                    detail += " " + args.get(1);
                }
                longest = new SlowCall(micros, detail, name);
            }
        }
        if (longest.micros() >= 0) {
            // How the longest call compares with its siblings: an outlier hints at preemption, not work.
            List<Long> same = byCommand.get(longest.distribution());
            same.sort(null);
            longest = new SlowCall(longest.micros(), longest.command(), String.format(Locale.ROOT,
                    "; that command's %d logged calls: median %.2f ms, p99 %.2f ms", same.size(),
                    same.get(same.size() / 2) / 1000.0, same.get((int) Math.min(same.size() - 1,
                            Math.floor(same.size() * 0.99))) / 1000.0));
        }
        return longest;
    }

    @SuppressWarnings("unchecked")
    private static long countOver(List<Object> slowlog, long micros) {
        long count = 0;
        for (Object entry : slowlog) {
            List<Object> fields = (List<Object>) entry;
            List<Object> args = (List<Object>) fields.get(3);
            if ((Long) fields.get(2) > micros
                    && !(args.isEmpty() || CallCensus.isHarnessCommand(String.valueOf(args.get(0))))) {
                count++;
            }
        }
        return count;
    }

    private static Row missing(BenchmarkContext context, String scenario, String implementation, String why) {
        return context.table().add(scenario, implementation).note("not measured: " + why);
    }

    private Row loadRow(BenchmarkContext context, String scenario, String implementation, LoadResult result) {
        Row row = context.table().add(scenario, implementation)
                .throughput(result.throughput())
                .latencies(result.p50Millis(), result.p99Millis(), result.maxMillis())
                .cpu(result.cpuMicrosPerCall())
                .note("scheduled msg/s; latency = one schedule call");
        if (result.errors() > 0) {
            row.addNote(result.errors() + " errors, first: " + result.firstError());
        }
        return row;
    }

    private static boolean awaitDeliveries(LongSupplier delivered, long expected, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (delivered.getAsLong() < expected) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Enough lead time for the producers to finish before the first message is due (1.5× the measured rate). */
    private static long leadMicros(int messages, double scheduleRate) {
        double rate = scheduleRate > 0 ? scheduleRate : 2_000;
        return (long) (1_000_000 + 1.5 * messages / rate * 1_000_000);
    }

    private static Instant toInstant(long epochMicros) {
        return Instant.ofEpochSecond(epochMicros / 1_000_000, (epochMicros % 1_000_000) * 1000);
    }
}
