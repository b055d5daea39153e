package io.quarkiverse.pacer.benchmarks.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.HdrHistogram.Histogram;
import org.jboss.logging.Logger;

import io.quarkiverse.pacer.benchmarks.BenchmarkContext;
import io.quarkiverse.pacer.benchmarks.BenchmarkSettings;
import io.quarkiverse.pacer.benchmarks.LoadRunner;
import io.quarkiverse.pacer.benchmarks.ResultTable;
import io.quarkiverse.pacer.benchmarks.ResultTable.Row;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringSchedules;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.scheduler.Scheduler;

/**
 * Scheduler rows ({@code -Dbench.only=scheduler}): N schedules firing every second, in one run on one machine, by
 * Quarkus's in-memory {@code SIMPLE} scheduler (programmatic jobs, the baseline), Pacer's {@code PACER} scheduler
 * (programmatic jobs, each tick claimed in Redis) and Pacer's recurring schedules (each tick delivered to a
 * {@code @Delayed} queue). Each scenario creates its N schedules, lets them run for {@code bench.scheduler.warmup},
 * then counts every run of a tick whose fire time falls in the next {@code bench.scheduler.measure} (whole seconds):
 * lateness (start of the run minus the tick's fire time), runs per tick with missed and duplicate ticks, Redis CPU
 * ({@code INFO cpu}) and Redis calls ({@code INFO commandstats}) per tick, and the JVM's CPU.
 */
@ApplicationScoped
public class SchedulerBenchmarks {

    private static final Logger LOG = Logger.getLogger(SchedulerBenchmarks.class);

    static final String SIMPLE = "Quarkus SIMPLE scheduler (in memory), newJob";
    static final String PACER_JOBS = "Pacer PACER scheduler, newJob";
    static final String PACER_RECURRING = "Pacer recurring schedules → @Delayed";

    /** After the window's last tick, how long its late runs may still come in. */
    private static final Duration SETTLE = Duration.ofSeconds(5);
    /** After a scenario's schedules are removed, before the next scenario starts. */
    private static final Duration QUIET = Duration.ofSeconds(3);
    /** Threads creating and deleting the recurring schedules (blocking calls). */
    private static final int SETUP_THREADS = 16;

    private static final Pattern COMMAND_STATS = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)");
    private static final List<String> HARNESS_COMMANDS = List.of("info", "config", "flushall", "slowlog");
    private static final List<String> SCRIPT_COMMANDS = List.of("evalsha", "eval", "evalsha_ro", "eval_ro", "fcall",
            "fcall_ro");

    @Inject
    Scheduler scheduler;

    @Inject
    RecurringSchedules recurring;

    @Inject
    TickRecorder recorder;

    public void run(BenchmarkContext context) throws Exception {
        Duration warmup = BenchmarkSettings.duration("bench.scheduler.warmup", "10s");
        long windowSeconds = Math.max(1, BenchmarkSettings.duration("bench.scheduler.measure", "20s").toSeconds());
        for (String count : System.getProperty("bench.scheduler.jobs", "10000").split(",")) {
            int jobs = Integer.parseInt(count.trim().replace("_", ""));
            String scenario = String.format(Locale.ROOT, "scheduler, %,d schedules every 1 s · %d s", jobs,
                    windowSeconds);
            LOG.infof("Scheduler scenario: %s", scenario);
            context.flushAll();
            Measured simple = measure(context, SIMPLE, jobs, warmup, windowSeconds,
                    () -> scheduleJobs(jobs, Scheduled.SIMPLE, "bench-simple-"),
                    () -> unscheduleJobs(jobs, "bench-simple-"));
            context.flushAll();
            Measured pacer = measure(context, PACER_JOBS, jobs, warmup, windowSeconds,
                    () -> scheduleJobs(jobs, "PACER", "bench-pacer-"), () -> unscheduleJobs(jobs, "bench-pacer-"));
            context.flushAll();
            Measured recurringRun = measure(context, PACER_RECURRING, jobs, warmup, windowSeconds,
                    () -> upsertSchedules(jobs), () -> deleteSchedules(jobs));
            context.flushAll();

            Row simpleRow = row(context, scenario, SIMPLE, simple, null);
            Row pacerRow = row(context, scenario, PACER_JOBS, pacer, simple);
            row(context, scenario, PACER_RECURRING, recurringRun, simple);
            simpleRow.comparedTo(pacerRow);
        }
    }

    /** One scheduler's figures over the window. */
    record Measured(int jobs, long windowSeconds, long runs, long distinct, long missed, long extra, long duplicates,
            int jobsShort, long early, Histogram lateness, double redisCpuSeconds, Map<String, Long> calls,
            long jvmCpuNanos, double elapsedSeconds, long setupMillis, String busiestThreads, double machineBusy,
            double connectionBusy,
            String failure) {

        long expected() {
            return jobs * windowSeconds;
        }

        long scriptCalls() {
            return calls.entrySet().stream().filter(e -> SCRIPT_COMMANDS.contains(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum();
        }

        long allCalls() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    private Measured measure(BenchmarkContext context, String implementation, int jobs, Duration warmup,
            long windowSeconds, Step setUp, Step tearDown) throws Exception {
        long setupStart = System.currentTimeMillis();
        recorder.reset(Long.MAX_VALUE, Long.MAX_VALUE);
        try {
            setUp.run();
            long setupMillis = System.currentTimeMillis() - setupStart;
            LOG.infof("%s: %,d schedules created in %,d ms; warm-up %s", implementation, jobs, setupMillis, warmup);
            long windowStart = System.currentTimeMillis() + warmup.toMillis();
            long windowEnd = windowStart + windowSeconds * 1000;
            recorder.reset(windowStart, windowEnd);
            sleepUntil(windowStart);
            context.admin("CONFIG", "RESETSTAT");
            double cpu1 = redisCpuSeconds(context);
            long jvm1 = LoadRunner.processCpuNanos();
            Map<String, Long> threads1 = ThreadCpu.snapshot();
            long[] machine1 = ThreadCpu.machine();
            ThreadSampler sampler = new ThreadSampler("pacer-redis");
            long t1 = System.nanoTime();
            sleepUntil(windowEnd);
            double cpu2 = redisCpuSeconds(context);
            long jvm2 = LoadRunner.processCpuNanos();
            Map<String, Long> threads2 = ThreadCpu.snapshot();
            long[] machine2 = ThreadCpu.machine();
            long t2 = System.nanoTime();
            sampler.close();
            double busy = ThreadCpu.busyShare(machine1, machine2);
            LOG.infof("%s, %,d schedules: machine CPU busy %.0f%% (all processes), load average %s; Pacer's connection"
                    + " threads (pacer-redis-*) at work (not waiting in their selector) in %.0f%% of %s", implementation, jobs,
                    busy * 100,
                    loadAverage(), sampler.busyShare() * 100, sampler.describe(10));
            String busiest = ThreadCpu.busiest(threads1, threads2, (t2 - t1) / 1e9, 4);
            LOG.infof("%s, %,d schedules: busiest JVM threads (cores): %s", implementation, jobs,
                    ThreadCpu.busiest(threads1, threads2, (t2 - t1) / 1e9, 12));
            String commandStats = String.valueOf(context.admin("INFO", "commandstats"));
            LOG.infof("%s, %,d schedules: Redis INFO commandstats of the window:%n%s", implementation, jobs,
                    commandStats);
            long expected = (long) jobs * windowSeconds;
            long deadline = windowEnd + SETTLE.toMillis();
            while (recorder.counted() < expected && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            // Late duplicates would come after the last expected run: give them a moment as well.
            Thread.sleep(500);
            int[] perJob = recorder.ticksPerJob(jobs);
            long missed = 0;
            long extra = 0;
            int jobsShort = 0;
            for (int ticks : perJob) {
                if (ticks < windowSeconds) {
                    missed += windowSeconds - ticks;
                    jobsShort++;
                } else {
                    extra += ticks - windowSeconds;
                }
            }
            long counted = recorder.counted();
            long distinct = recorder.distinctTicks();
            LOG.infof("%s, %,d schedules: %,d runs of %,d expected ticks (%,d distinct), %,d runs in all since the"
                    + " window opened", implementation, jobs, counted, expected, distinct, recorder.allRuns());
            return new Measured(jobs, windowSeconds, counted, distinct, missed, extra, counted - distinct, jobsShort,
                    recorder.early(), recorder.lateness().copy(), cpu2 - cpu1, calls(commandStats), jvm2 - jvm1,
                    (t2 - t1) / 1e9, setupMillis, busiest, busy, sampler.busyShare(), null);
        } catch (Exception | Error e) {
            LOG.errorf(e, "%s, %,d schedules failed", implementation, jobs);
            return new Measured(jobs, windowSeconds, 0, 0, 0, 0, 0, 0, 0, recorder.lateness().copy(), 0, Map.of(), 0,
                    0, System.currentTimeMillis() - setupStart, "", 0, 0, e.toString());
        } finally {
            try {
                tearDown.run();
            } catch (Exception e) {
                LOG.warnf("%s: tearing down failed: %s", implementation, e);
            }
            recorder.reset(Long.MAX_VALUE, Long.MAX_VALUE);
            // What the stopped schedules still had in flight drains before the next scenario.
            Thread.sleep(QUIET.toMillis());
        }
    }

    private void scheduleJobs(int jobs, String implementation, String prefix) {
        for (int i = 0; i < jobs; i++) {
            int job = i;
            scheduler.newJob(prefix + i).setInterval("1s").setExecuteWith(implementation)
                    .setTask((ScheduledExecution execution) -> recorder.ran(job, execution.getScheduledFireTime()))
                    .schedule();
        }
    }

    private void unscheduleJobs(int jobs, String prefix) {
        for (int i = 0; i < jobs; i++) {
            scheduler.unscheduleJob(prefix + i);
        }
    }

    private void upsertSchedules(int jobs) throws Exception {
        inParallel(jobs, i -> recurring.upsert(RecurringDelivery.every("bench-recurring-" + i, Duration.ofSeconds(1))
                .deliver(RecurringConsumer.QUEUE, Integer.toString(i))));
    }

    private void deleteSchedules(int jobs) throws Exception {
        inParallel(jobs, i -> recurring.delete("bench-recurring-" + i));
    }

    private static void inParallel(int count, IntConsumer action) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(SETUP_THREADS);
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < SETUP_THREADS; t++) {
                int first = t;
                parts.add(pool.submit(() -> {
                    for (int i = first; i < count; i += SETUP_THREADS) {
                        action.accept(i);
                    }
                }));
            }
            for (Future<?> part : parts) {
                part.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Row row(BenchmarkContext context, String scenario, String implementation, Measured run,
            Measured simple) {
        Row row = context.table().add(scenario, implementation);
        if (run.failure() != null) {
            return row.note("not measured: " + run.failure());
        }
        Histogram lateness = run.lateness();
        double ticks = run.windowSeconds();
        row.throughput(run.runs() / ticks)
                .latencies(lateness.getValueAtPercentile(50) / 1e3, lateness.getValueAtPercentile(99) / 1e3,
                        lateness.getMaxValue() / 1e3)
                .cpu(run.jvmCpuNanos() / 1e3 / Math.max(1, run.runs()));
        StringBuilder note = new StringBuilder(String.format(Locale.ROOT,
                "ops/s = runs per tick (1 tick/s); %,.0f runs per tick of %,d schedules: %,d missed (%,d schedules short),"
                        + " %,d duplicates, %,d off-grid",
                run.runs() / ticks, run.jobs(), run.missed(), run.jobsShort(), run.duplicates(), run.extra()));
        if (run.early() > 0) {
            note.append(String.format(Locale.ROOT, ", %,d early", run.early()));
        }
        note.append(String.format(Locale.ROOT, "; lateness min %s ms", ResultTable.millis(
                lateness.getMinValue() / 1e3)));
        note.append(String.format(Locale.ROOT, "; Redis CPU %.1f ms per tick (%.2f cores); Redis calls per tick:"
                + " %,.0f script calls, %,.0f commands in all%s; JVM CPU %.2f cores (%s); set-up %,d ms",
                run.redisCpuSeconds() * 1e3 / ticks, run.redisCpuSeconds() / run.elapsedSeconds(),
                run.scriptCalls() / ticks, run.allCalls() / ticks, topCalls(run, ticks),
                run.jvmCpuNanos() / 1e9 / run.elapsedSeconds(), run.busiestThreads(), run.setupMillis()));
        note.append(String.format(Locale.ROOT,
                "; machine CPU busy %.0f%%; Pacer's connection thread at work in %.0f%% of stack samples",
                run.machineBusy() * 100, run.connectionBusy() * 100));
        if (simple != null && simple.failure() == null && simple.runs() > 0) {
            double p50 = simple.lateness().getValueAtPercentile(50);
            double p99 = simple.lateness().getValueAtPercentile(99);
            note.append(String.format(Locale.ROOT, "; lateness p50 %s, p99 %s the SIMPLE scheduler's",
                    ratio(lateness.getValueAtPercentile(50), p50), ratio(lateness.getValueAtPercentile(99), p99)));
        }
        return row.note(note.toString());
    }

    private static String ratio(double value, double reference) {
        return reference <= 0 ? "n/a" : String.format(Locale.ROOT, "%.2f×", value / reference);
    }

    private static String topCalls(Measured run, double ticks) {
        if (run.calls().isEmpty()) {
            return "";
        }
        return run.calls().entrySet().stream().sorted(Map.Entry.<String, Long> comparingByValue().reversed())
                .limit(4).map(e -> String.format(Locale.ROOT, "%s %,.0f", e.getKey(), e.getValue() / ticks))
                .collect(Collectors.joining(", ", " (", ")"));
    }

    /** Calls per command since {@code CONFIG RESETSTAT}, the harness's own commands left out. */
    static Map<String, Long> calls(String commandStats) {
        Map<String, Long> calls = new LinkedHashMap<>();
        Matcher stats = COMMAND_STATS.matcher(commandStats);
        while (stats.find()) {
            String command = stats.group(1).toLowerCase(Locale.ROOT);
            if (!HARNESS_COMMANDS.contains(command)) {
                calls.put(command, Long.parseLong(stats.group(2)));
            }
        }
        return calls;
    }

    private static double redisCpuSeconds(BenchmarkContext context) {
        String info = String.valueOf(context.admin("INFO", "cpu"));
        double sum = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                sum += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return sum;
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long remaining;
        while ((remaining = epochMillis - System.currentTimeMillis()) > 0) {
            Thread.sleep(Math.min(remaining, 1_000));
        }
    }
}
