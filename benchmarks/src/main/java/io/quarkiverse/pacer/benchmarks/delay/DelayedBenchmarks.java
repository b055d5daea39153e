package io.quarkiverse.pacer.benchmarks.delay;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.HdrHistogram.Histogram;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.BenchmarkSettings;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.LoadRunner.LoadResult;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.redis.LuaScript;

/**
 * Delayed-delivery rows, Pacer against Redisson's {@code RDelayedQueue}: schedule throughput, end-to-end delivery
 * throughput, lateness of messages spread over a window, and a due storm with the longest single Redis call.
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

    @Inject
    Instance<DelayedQueue> queues;

    private DelayedQueue queue;

    @Inject
    DeliveryRecorder recorder;

    @Inject
    DelayedBulkBenchmarks bulk;

    /** Pacer's schedule against Redisson's offer, 64 producers, with default Redis client settings (issue 20). */
    static final double SCHEDULE_PEER_TARGET = 3.0;
    /** Pacer's end-to-end delivery against Redisson's, producers not the limit (issue 20). */
    static final double E2E_PEER_TARGET = 2.5;

    /** Pacer's scripts, to name an EVALSHA in the slow log. */

    private static final List<LuaScript> PACER_SCRIPTS = List.of(DelayedScripts.SCHEDULE, DelayedScripts.SCHEDULE_ALL,
            DelayedScripts.CLAIM, DelayedScripts.ACK, DelayedScripts.NACK, DelayedScripts.RENEW, DelayedScripts.CANCEL,
            DelayedScripts.SIZE, DelayedScripts.DEAD_LETTERS, DelayedScripts.REPLAY, DelayedScripts.PURGE,
            LuaScript.load("server-time"));

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
            LOG.warn("Pacer's DelayedQueue bean is missing from this build: only the Redisson rows run");
        }
        try (RedissonDelayedQueuePeer redisson = new RedissonDelayedQueuePeer(context.redisUri(),
                settings.highConcurrency(), settings.delayedConsumers(), recorder)) {
            // Lateness and the storm size their lead time from the schedule rates, so they bring the schedule row.
            double[] scheduleRates = scenario("schedule") || scenario("lateness") || scenario("storm")
                    ? scheduleThroughput(context, redisson)
                    : null;
            if (scenario("e2e")) {
                endToEnd(context, redisson);
            }
            if (scenario("lateness")) {
                lateness(context, redisson, scheduleRates);
            }
            if (scenario("storm")) {
                storm(context, redisson, scheduleRates);
            }
            bulk.run(context, redisson, scenario("bulk"), scenario("memory"));
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

    private double[] scheduleThroughput(BenchmarkContext context, RedissonDelayedQueuePeer redisson) {
        BenchmarkSettings settings = context.settings();
        int callers = settings.highConcurrency();
        String scenario = "schedule, due in 1 h · " + callers + " producers";
        LOG.infof("Delayed scenario: %s", scenario);
        context.flushAll();
        LoadResult pacer = queue == null ? null
                : LoadRunner.run(callers, settings.warmup(), settings.measure(), (worker, sequence) -> {
                    queue.schedule(DelayedConsumers.SCHEDULE_QUEUE, "payload-" + sequence, Duration.ofHours(1));
                    return true;
                });
        context.flushAll();
        LoadResult peer;
        try (RedissonDelayedQueuePeer.Queue delayed = redisson.queue("redisson-schedule")) {
            long dueAt = DeliveryRecorder.nowMicros() + TimeUnit.HOURS.toMicros(1);
            peer = LoadRunner.run(callers, settings.warmup(), settings.measure(), (worker, sequence) -> {
                delayed.schedule(dueAt, sequence);
                return true;
            });
        }
        context.flushAll();
        Row pacerRow = pacer == null ? missing(context, scenario, "Pacer DelayedQueue.schedule")
                : loadRow(context, scenario, "Pacer DelayedQueue.schedule", pacer);
        Row redissonRow = loadRow(context, scenario, "Redisson RDelayedQueue.offer", peer).comparedTo(pacerRow);
        redissonRow.target(String.format(Locale.ROOT, "Pacer ≥ %.1f× msg/s", SCHEDULE_PEER_TARGET),
                redissonRow.pacerThroughputRatio() != null
                        && redissonRow.pacerThroughputRatio() >= SCHEDULE_PEER_TARGET);
        return new double[] { pacer == null ? 0 : pacer.throughput(), peer.throughput() };
    }

    private void endToEnd(BenchmarkContext context, RedissonDelayedQueuePeer redisson) throws Exception {
        BenchmarkSettings settings = context.settings();
        String scenario = "end-to-end no-op, due now · " + PRODUCERS + " producers, " + settings.delayedConsumers()
                + " consumers";
        LOG.infof("Delayed scenario: %s", scenario);
        context.flushAll();
        Row pacerRow = queue == null ? missing(context, scenario, "Pacer @Delayed")
                : endToEndRow(context, scenario, "Pacer @Delayed", (dueAt, sequence) -> queue
                        .schedule(DelayedConsumers.E2E_QUEUE, "payload-" + sequence, Duration.ZERO));
        pacerRow.target(String.format(Locale.ROOT, "≥ %,.0f msg/s", E2E_TARGET),
                pacerRow.throughputValue() != null && pacerRow.throughputValue() >= E2E_TARGET);
        context.flushAll();
        try (RedissonDelayedQueuePeer.Queue delayed = redisson.queue("redisson-e2e")) {
            delayed.startConsumers();
            Row redissonRow = endToEndRow(context, scenario, "Redisson RDelayedQueue", delayed::schedule)
                    .comparedTo(pacerRow);
            redissonRow.target(String.format(Locale.ROOT, "Pacer ≥ %.1f× msg/s", E2E_PEER_TARGET),
                    redissonRow.pacerThroughputRatio() != null && redissonRow.pacerThroughputRatio() >= E2E_PEER_TARGET);
        }
        context.flushAll();
    }

    /**
     * Producers schedule messages due immediately for warm-up plus measurement; the row's rate is deliveries per
     * second during the measurement window, its latencies the time from due (= scheduling) to delivery.
     */
    private Row endToEndRow(BenchmarkContext context, String scenario, String implementation, Scheduler scheduler)
            throws Exception {
        BenchmarkSettings settings = context.settings();
        recorder.reset();
        AtomicLong scheduled = new AtomicLong();
        Duration census = Duration.ofSeconds(1);
        Thread load = new Thread(() -> LoadRunner.run(PRODUCERS, settings.warmup(), settings.measure().plus(census),
                (worker, sequence) -> {
                    scheduler.schedule(DeliveryRecorder.nowMicros(), sequence);
                    scheduled.incrementAndGet();
                    return true;
                }), "bench-e2e-producers");
        load.start();
        Thread.sleep(settings.warmup().toMillis());
        context.admin("CONFIG", "RESETSTAT");
        long count1 = recorder.count();
        long scheduled1 = scheduled.get();
        long t1 = System.nanoTime();
        Thread.sleep(settings.measure().toMillis());
        long count2 = recorder.count();
        long scheduled2 = scheduled.get();
        long t2 = System.nanoTime();
        // Redis's own time per command during the measurement (usec_per_call), for the profile of delivery.
        LOG.infof("%s, %s: %,d delivered; Redis INFO commandstats of the measurement:%n%s", scenario, implementation,
                count2 - count1, context.admin("INFO", "commandstats"));
        long backlog = scheduled2 - count2;
        // A census of every Redis call for one more second (outside the measured window: logging costs Redis time).
        context.admin("CONFIG", "SET", "slowlog-max-len", "1000000");
        context.admin("CONFIG", "SET", "slowlog-log-slower-than", "0");
        context.admin("SLOWLOG", "RESET");
        long census1 = recorder.count();
        Thread.sleep(census.toMillis());
        long census2 = recorder.count();
        List<Object> calls = context.slowlog();
        context.admin("CONFIG", "SET", "slowlog-log-slower-than", "10000");
        load.join();
        boolean drained = awaitDeliveries(scheduled.get(), Duration.ofSeconds(60));
        double seconds = (t2 - t1) / 1e9;
        double rate = (count2 - count1) / seconds;
        Histogram lateness = recorder.lateness();
        Row row = context.table().add(scenario, implementation)
                .throughput(rate)
                .latencies(lateness.getValueAtPercentile(50) / 1e3, lateness.getValueAtPercentile(99) / 1e3,
                        lateness.getMaxValue() / 1e3)
                .note(String.format(Locale.ROOT, "delivered msg/s; latency = schedule to delivery; scheduled %,.0f/s;"
                        + " backlog at end %,d; Redis calls per delivered msg: %s", (scheduled2 - scheduled1) / seconds,
                        backlog, callCensus(calls, census2 - census1)));
        if (!drained) {
            row.addNote(String.format("only %,d of %,d delivered within 60 s", recorder.count(), scheduled.get()));
        }
        return row;
    }

    private void lateness(BenchmarkContext context, RedissonDelayedQueuePeer redisson, double[] scheduleRates)
            throws Exception {
        BenchmarkSettings settings = context.settings();
        int messages = settings.lateMessages();
        Duration spread = settings.lateSpread();
        String scenario = String.format(Locale.ROOT, "lateness, %,d msgs due within %d s", messages,
                spread.toSeconds());
        LOG.infof("Delayed scenario: %s", scenario);
        context.flushAll();
        Row pacerRow = queue == null ? missing(context, scenario, "Pacer @Delayed")
                : latenessRow(context, scenario, "Pacer @Delayed", messages, spread, scheduleRates[0],
                        (dueAt, sequence) -> queue.schedule(DelayedConsumers.LATENESS_QUEUE, "payload-" + sequence,
                                toInstant(dueAt)));
        pacerRow.target(String.format(Locale.ROOT, "p99 ≤ %.0f ms", LATENESS_P99_TARGET_MILLIS),
                pacerRow.p99Value() != null && pacerRow.p99Value() <= LATENESS_P99_TARGET_MILLIS);
        pacerRow.target(String.format(Locale.ROOT, "max ≤ %.0f ms", LATENESS_MAX_TARGET_MILLIS),
                pacerRow.maxValue() != null && pacerRow.maxValue() <= LATENESS_MAX_TARGET_MILLIS);
        context.flushAll();
        try (RedissonDelayedQueuePeer.Queue delayed = redisson.queue("redisson-lateness")) {
            delayed.startConsumers();
            latenessRow(context, scenario, "Redisson RDelayedQueue", messages, spread, scheduleRates[1],
                    delayed::schedule).comparedTo(pacerRow);
        }
        context.flushAll();
    }

    private Row latenessRow(BenchmarkContext context, String scenario, String implementation, int messages,
            Duration spread, double scheduleRate, Scheduler scheduler) throws Exception {
        recorder.reset();
        long lead = leadMicros(messages, scheduleRate);
        long base = DeliveryRecorder.nowMicros() + lead;
        long spreadMicros = spread.toNanos() / 1000;
        long scheduling = parallel(messages, sequence -> scheduler.schedule(
                base + ThreadLocalRandom.current().nextLong(spreadMicros), sequence));
        long scheduledBy = DeliveryRecorder.nowMicros();
        boolean all = awaitDeliveries(messages, Duration.of(Math.max(0, base + spreadMicros - scheduledBy),
                ChronoUnit.MICROS).plusSeconds(60));
        Histogram lateness = recorder.lateness();
        Row row = context.table().add(scenario, implementation)
                .latencies(lateness.getValueAtPercentile(50) / 1e3, lateness.getValueAtPercentile(99) / 1e3,
                        lateness.getMaxValue() / 1e3)
                .note(String.format(Locale.ROOT, "latency = delivery minus due time; scheduled in %.1f s, %.1f s"
                        + " before the first due time", scheduling / 1e6, (base - scheduledBy) / 1e6));
        if (recorder.early() > 0) {
            row.addNote(recorder.early() + " delivered early");
        }
        if (!all) {
            row.addNote(String.format("only %,d of %,d delivered", recorder.count(), messages));
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
                ? new StormRowResult(missing(context, scenario, "Pacer @Delayed"), null)
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
        long scheduling = parallel(messages, sequence -> scheduler.schedule(due, sequence));
        long scheduledBy = DeliveryRecorder.nowMicros();
        // Only the drain is of interest: start the slow log now, after the producers are done.
        context.admin("CONFIG", "SET", "slowlog-log-slower-than", Long.toString(settings.slowlogThresholdMicros()));
        context.admin("SLOWLOG", "RESET");
        boolean all = awaitDeliveries(messages, Duration.of(Math.max(0, due - scheduledBy), ChronoUnit.MICROS)
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
            if (isHarnessCommand(command)) {
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

    /**
     * Redis calls per delivered message: script calls by name, then every command in all (Redis logs the commands a
     * script runs as entries of their own, so the total counts the work inside scripts too).
     */
    @SuppressWarnings("unchecked")
    private String callCensus(List<Object> slowlog, long delivered) {
        if (delivered <= 0) {
            return "none delivered";
        }
        Map<String, Long> scripts = new HashMap<>();
        long commands = 0;
        for (Object entry : slowlog) {
            List<Object> args = (List<Object>) ((List<Object>) entry).get(3);
            if (args.isEmpty() || isHarnessCommand(String.valueOf(args.get(0)))) {
                continue;
            }
            commands++;
            String command = String.valueOf(args.get(0)).toUpperCase(Locale.ROOT);
            if (command.equals("EVALSHA") || command.equals("EVAL")) {
                String sha = args.size() > 1 ? String.valueOf(args.get(1)) : "?";
                scripts.merge(scriptNames.getOrDefault(sha, "script " + sha.substring(0, Math.min(8, sha.length()))),
                        1L, Long::sum);
            } else if (command.equals("BLPOP") || command.equals("LPOP") || command.equals("PUBLISH")) {
                scripts.merge(command, 1L, Long::sum);
            }
        }
        StringBuilder text = new StringBuilder();
        scripts.entrySet().stream().sorted(Map.Entry.<String, Long> comparingByValue().reversed()).limit(5)
                .forEach(e -> text.append(text.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                        .append(String.format(Locale.ROOT, "%.2f", e.getValue() / (double) delivered)));
        text.append(String.format(Locale.ROOT, "; %.1f Redis commands per msg in all", commands / (double) delivered));
        return text.toString();
    }

    @SuppressWarnings("unchecked")
    private static long countOver(List<Object> slowlog, long micros) {
        long count = 0;
        for (Object entry : slowlog) {
            List<Object> fields = (List<Object>) entry;
            List<Object> args = (List<Object>) fields.get(3);
            if ((Long) fields.get(2) > micros && !(args.isEmpty() || isHarnessCommand(String.valueOf(args.get(0))))) {
                count++;
            }
        }
        return count;
    }

    private static boolean isHarnessCommand(String command) {
        String upper = command.toUpperCase(Locale.ROOT);
        return upper.equals("SLOWLOG") || upper.equals("CONFIG") || upper.equals("FLUSHALL");
    }

    private static Row missing(BenchmarkContext context, String scenario, String implementation) {
        return context.table().add(scenario, implementation).note("not measured: missing from this build");
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

    private boolean awaitDeliveries(long expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (recorder.count() < expected) {
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

    /** Runs {@code action(sequence)} for sequences 0..n-1 on {@link #PRODUCERS} threads; returns elapsed µs. */
    private static long parallel(int n, LongConsumer action) throws InterruptedException {
        AtomicLong next = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        long start = DeliveryRecorder.nowMicros();
        for (int i = 0; i < PRODUCERS; i++) {
            Thread thread = new Thread(() -> {
                long sequence;
                while ((sequence = next.getAndIncrement()) < n) {
                    try {
                        action.accept(sequence);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }, "bench-scheduler-" + i);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            LOG.warnf("Scheduling failed at least once: %s", failure.get().toString());
        }
        return DeliveryRecorder.nowMicros() - start;
    }

    private static Instant toInstant(long epochMicros) {
        return Instant.ofEpochSecond(epochMicros / 1_000_000, (epochMicros % 1_000_000) * 1000);
    }
}
