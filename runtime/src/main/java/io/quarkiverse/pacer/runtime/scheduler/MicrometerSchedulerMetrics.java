package io.quarkiverse.pacer.runtime.scheduler;

import java.util.EnumMap;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Micrometer meters of {@code PACER} jobs, all tagged with {@code job} (the job's identity) and counted by the instance
 * that did the work: {@code pacer.scheduler.runs} (tag {@code outcome} = success | failure; runs that ended, reruns
 * included), {@code pacer.scheduler.reruns} (runs of a dead instance taken over after their lease expired),
 * {@code pacer.scheduler.skipped} (tag {@code reason} = concurrent-execution | skip-execution-if | overdue) and the
 * timer {@code pacer.scheduler.lateness} (a tick's scheduled fire time to its claim). Meters are created once per job.
 */
@Singleton
public class MicrometerSchedulerMetrics implements SchedulerMetrics {

    private final MeterRegistry registry;

    MicrometerSchedulerMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public JobMetrics job(String id) {
        return new MicrometerJobMetrics(id);
    }

    private final class MicrometerJobMetrics implements JobMetrics {
        final Counter succeeded;
        final Counter failed;
        final Counter reruns;
        final EnumMap<Skip, Counter> skipped = new EnumMap<>(Skip.class);
        final Timer lateness;

        MicrometerJobMetrics(String job) {
            succeeded = runs(job, "success");
            failed = runs(job, "failure");
            reruns = Counter.builder("pacer.scheduler.reruns")
                    .description("Runs of PACER jobs taken over from an instance whose lease expired, run again here")
                    .tag("job", job).register(registry);
            for (Skip reason : Skip.values()) {
                skipped.put(reason, Counter.builder("pacer.scheduler.skipped")
                        .description("Ticks of PACER jobs that did not run, per reason")
                        .tag("job", job).tag("reason", reason.tag).register(registry));
            }
            lateness = Timer.builder("pacer.scheduler.lateness")
                    .description("Time from a PACER tick's scheduled fire time to its claim (Redis time)")
                    .tag("job", job).register(registry);
        }

        private Counter runs(String job, String outcome) {
            return Counter.builder("pacer.scheduler.runs")
                    .description("Runs of PACER jobs that ended on this instance, per outcome")
                    .tag("job", job).tag("outcome", outcome).register(registry);
        }

        @Override
        public void ended(boolean failure) {
            (failure ? failed : succeeded).increment();
        }

        @Override
        public void rerun() {
            reruns.increment();
        }

        @Override
        public void skipped(Skip reason, long ticks) {
            skipped.get(reason).increment(ticks);
        }

        @Override
        public void lateness(long millis) {
            lateness.record(Math.max(0, millis), TimeUnit.MILLISECONDS);
        }
    }
}
