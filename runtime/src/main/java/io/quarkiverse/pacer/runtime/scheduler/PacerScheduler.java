package io.quarkiverse.pacer.runtime.scheduler;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.UUID;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.FailedExecution;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledJobPaused;
import io.quarkus.scheduler.ScheduledJobResumed;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.scheduler.SkippedExecution;
import io.quarkus.scheduler.SuccessfulExecution;
import io.quarkus.scheduler.Trigger;
import io.quarkus.scheduler.common.runtime.CronParser;
import io.quarkus.scheduler.common.runtime.Events;
import io.quarkus.scheduler.common.runtime.InstrumentedInvoker;
import io.quarkus.scheduler.common.runtime.ScheduledInvoker;
import io.quarkus.scheduler.common.runtime.ScheduledMethod;
import io.quarkus.scheduler.common.runtime.SchedulerContext;
import io.quarkus.scheduler.common.runtime.SkipPredicateInvoker;
import io.quarkus.scheduler.common.runtime.StatusEmitterInvoker;
import io.quarkus.scheduler.common.runtime.util.SchedulerUtils;
import io.quarkus.scheduler.runtime.SchedulerConfig;
import io.quarkus.scheduler.runtime.SchedulerRuntimeConfig;
import io.quarkus.scheduler.spi.JobInstrumenter;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The {@code PACER} scheduler: runs the {@code @Scheduled(executeWith = "PACER")} methods, each tick once across all
 * instances that share the Redis. Registered by the build only when the application has such a method; Quarkus's
 * composite scheduler hands it these methods and its {@code Scheduler} calls.
 * <p>
 * Pausing and resuming a job is stored in Redis, so it holds on every instance; {@link #pause()} and {@link #resume()}
 * pause and resume every {@code PACER} job. Programmatic jobs ({@link #newJob(String)}) are not supported yet.
 */
@Typed(Scheduler.class)
@Singleton
public class PacerScheduler implements Scheduler {

    /** The implementation's name, for {@code @Scheduled(executeWith = ...)}. */
    public static final String IMPLEMENTATION = "PACER";

    private static final Logger LOG = Logger.getLogger(PacerScheduler.class);

    private final SchedulerContext context;
    private final SchedulerRuntimeConfig runtimeConfig;
    private final SchedulerConfig schedulerConfig;
    private final Instance<JobInstrumenter> instrumenter;
    private final SchedulerMetrics metrics;
    private final Events events;
    private final JobStateStore store;
    private final PacerRedis redis;
    private final Vertx vertx;
    private final String instanceId = UUID.randomUUID().toString();
    private final Map<String, ClusterJob> jobs = new LinkedHashMap<>();
    private volatile boolean started;
    private volatile boolean claiming;

    PacerScheduler(SchedulerContext context, SchedulerRuntimeConfig runtimeConfig, SchedulerConfig schedulerConfig,
            Instance<JobInstrumenter> instrumenter, Instance<SchedulerMetrics> metrics, PacerRedis redis, PacerConfig config,
            Vertx vertx,
            Event<SkippedExecution> skipped, Event<SuccessfulExecution> successful, Event<FailedExecution> failed,
            Event<ScheduledJobPaused> jobPaused, Event<ScheduledJobResumed> jobResumed) {
        this.context = context;
        this.runtimeConfig = runtimeConfig;
        this.schedulerConfig = schedulerConfig;
        this.instrumenter = instrumenter;
        this.metrics = metrics.isResolvable() ? metrics.get() : null;
        this.events = new Events(skipped, successful, failed, null, null, null, jobPaused, jobResumed);
        this.redis = redis;
        this.store = new JobStateStore(redis, config.keyPrefix());
        this.vertx = vertx;
    }

    // After Pacer's connections exist, before the application's own StartupEvent observers.
    void start(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE + 10) StartupEvent event) {
        if (!runtimeConfig.enabled()) {
            LOG.debugf("quarkus.scheduler.enabled=false: the PACER scheduler does not start");
            return;
        }
        CronParser cronParser = new CronParser(context.getCronType());
        for (ScheduledMethod method : context.getScheduledMethods(IMPLEMENTATION)) {
            int sequence = 0;
            for (Scheduled scheduled : method.getSchedules()) {
                sequence++;
                if (!context.matchesImplementation(scheduled, IMPLEMENTATION)) {
                    continue;
                }
                String id = SchedulerUtils.lookUpPropertyValue(scheduled.identity());
                if (id.isEmpty()) {
                    id = sequence + "_" + method.getMethodDescription();
                }
                FireTimes times = fireTimes(cronParser, scheduled);
                if (times == null) {
                    LOG.debugf("PACER job %s is off", id);
                    continue;
                }
                JobMetrics jobMetrics = metrics == null ? JobMetrics.NONE : metrics.job(id);
                ClusterJob.Definition definition = new ClusterJob.Definition(id, method.getMethodDescription(), times,
                        delayMillis(scheduled),
                        SchedulerUtils.parseOverdueGracePeriod(scheduled, runtimeConfig.overdueGracePeriod()).toMillis(),
                        scheduled.concurrentExecution() == Scheduled.ConcurrentExecution.SKIP,
                        invoker(method, scheduled, jobMetrics));
                jobs.put(id, new ClusterJob(definition, store, vertx, this, events.skippedExecution, jobMetrics,
                        instanceId));
                LOG.debugf("PACER job %s: %s", id, times.spec());
            }
        }
        started = true;
        claiming = runtimeConfig.startMode() != SchedulerRuntimeConfig.StartMode.HALTED;
        jobs.values().forEach(ClusterJob::start);
    }

    /**
     * Counts the ticks a job's {@code skipExecutionIf} skipped: Quarkus's invoker tells only through this event (and
     * wrapping the predicate would change the event's detail, which names the predicate's class).
     */
    void countSkipped(@Observes SkippedExecution skipped) {
        if (metrics != null && skipped.getExecution() instanceof ClusterExecution execution
                && !ClusterJob.RUN_IN_FLIGHT.equals(skipped.getDetail())) {
            ClusterJob job = jobs.get(execution.getTrigger().getId());
            if (job != null) {
                job.metrics().skipped(JobMetrics.Skip.SKIP_EXECUTION_IF, 1);
            }
        }
    }

    void stop(@Observes ShutdownEvent event) {
        jobs.values().forEach(ClusterJob::stop);
    }

    private static FireTimes fireTimes(CronParser cronParser, Scheduled scheduled) {
        String cron = SchedulerUtils.lookUpPropertyValue(scheduled.cron());
        if (!cron.isEmpty()) {
            if (SchedulerUtils.isOff(cron)) {
                return null;
            }
            ZoneId zone = SchedulerUtils.parseCronTimeZone(scheduled);
            return new FireTimes.CronTimes(cron, cronParser.parse(cron), zone == null ? ZoneId.systemDefault() : zone);
        }
        OptionalLong every = SchedulerUtils.parseEveryAsMillis(scheduled);
        return every.isEmpty() ? null : new FireTimes.Every(every.getAsLong());
    }

    private static long delayMillis(Scheduled scheduled) {
        if (scheduled.delay() > 0) {
            return scheduled.delayUnit().toMillis(scheduled.delay());
        }
        return scheduled.delayed().isEmpty() ? 0 : SchedulerUtils.parseDelayedAsMillis(scheduled);
    }

    private ScheduledInvoker invoker(ScheduledMethod method, Scheduled scheduled, JobMetrics jobMetrics) {
        ScheduledInvoker invoker = new StatusEmitterInvoker(context.createInvoker(method.getInvokerClassName()),
                events.successExecution, events.failedExecution);
        if (schedulerConfig.tracingEnabled() && instrumenter.isResolvable()) {
            invoker = new InstrumentedInvoker(invoker, instrumenter.get());
        }
        if (jobMetrics != JobMetrics.NONE) {
            invoker = new RunMetricsInvoker(invoker, jobMetrics);
        }
        if (!scheduled.skipExecutionIf().equals(Scheduled.Never.class)) {
            invoker = new SkipPredicateInvoker(invoker, SchedulerUtils.instantiateBeanOrClass(scheduled.skipExecutionIf()),
                    events.skippedExecution);
        }
        return invoker;
    }

    /** Whether this instance claims ticks: not before start, nor when started halted until {@link #resume()}. */
    boolean isClaiming() {
        return started && claiming;
    }

    @Override
    public boolean isStarted() {
        return started;
    }

    @Override
    public void pause() {
        claiming = false;
        for (ClusterJob job : jobs.values()) {
            await(store.pause(job.key(), true, job.ttlMillis()));
        }
    }

    @Override
    public void resume() {
        claiming = started;
        for (ClusterJob job : jobs.values()) {
            await(store.pause(job.key(), false, job.ttlMillis()));
            job.checkNow();
        }
    }

    @Override
    public void pause(String identity) {
        ClusterJob job = job(identity);
        if (job != null) {
            await(store.pause(job.key(), true, job.ttlMillis()));
            Events.fire(events.scheduledJobPaused, new ScheduledJobPaused(job.trigger()));
        }
    }

    @Override
    public void resume(String identity) {
        ClusterJob job = job(identity);
        if (job != null) {
            await(store.pause(job.key(), false, job.ttlMillis()));
            job.checkNow();
            Events.fire(events.scheduledJobResumed, new ScheduledJobResumed(job.trigger()));
        }
    }

    /** Read from Redis: a pause through any instance shows on every instance at once. */
    @Override
    public boolean isPaused(String identity) {
        ClusterJob job = job(identity);
        if (job == null) {
            return false;
        }
        if (Context.isOnEventLoopThread()) {
            return job.pausedAsLastRead();
        }
        return store.read(job.key(), job.ttlMillis()).await().atMost(awaitAtMost()).paused();
    }

    /** Started, not paused with {@link #pause()} here, and at least one job not paused everywhere (as last read). */
    @Override
    public boolean isRunning() {
        if (!isClaiming()) {
            return false;
        }
        return jobs.isEmpty() || jobs.values().stream().anyMatch(job -> !job.pausedAsLastRead());
    }

    @Override
    public List<Trigger> getScheduledJobs() {
        List<Trigger> triggers = new ArrayList<>(jobs.size());
        jobs.values().forEach(job -> triggers.add(job.trigger()));
        return List.copyOf(triggers);
    }

    @Override
    public Trigger getScheduledJob(String identity) {
        ClusterJob job = job(identity);
        return job == null ? null : job.trigger();
    }

    /**
     * Not supported yet.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public JobDefinition<?> newJob(String identity) {
        throw new UnsupportedOperationException("The PACER scheduler does not support programmatic jobs yet "
                + "(Scheduler.newJob(\"" + identity + "\") with executeWith = \"PACER\"): declare the job with "
                + "@Scheduled(executeWith = \"PACER\"), or schedule it with another implementation");
    }

    /** {@code @Scheduled} jobs cannot be unscheduled, as with Quarkus's own schedulers: {@code null}. */
    @Override
    public Trigger unscheduleJob(String identity) {
        return null;
    }

    @Override
    public String implementation() {
        return IMPLEMENTATION;
    }

    private ClusterJob job(String identity) {
        Objects.requireNonNull(identity, "identity");
        if (identity.isEmpty()) {
            return null;
        }
        return jobs.get(SchedulerUtils.lookUpPropertyValue(identity));
    }

    private Duration awaitAtMost() {
        return redis.timeout().multipliedBy(2);
    }

    /** A blocking call waits for Redis; on an event loop it cannot, so the change goes out without waiting. */
    private void await(Uni<Void> change) {
        if (Context.isOnEventLoopThread()) {
            change.subscribe().with(ignored -> {
            }, failure -> LOG.warnf("PACER scheduler: pausing or resuming failed: %s", failure));
            return;
        }
        change.await().atMost(awaitAtMost());
    }

}
