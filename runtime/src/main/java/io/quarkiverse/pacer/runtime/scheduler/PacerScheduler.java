package io.quarkiverse.pacer.runtime.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.PacerStartup;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisTimeSleeper;
import io.quarkiverse.pacer.runtime.scheduler.PacerJobDefinition.ProgrammaticJob;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.DelayedExecution;
import io.quarkus.scheduler.FailedExecution;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.SkipPredicate;
import io.quarkus.scheduler.ScheduledExecution;
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
import io.quarkus.scheduler.common.runtime.SyntheticScheduled;
import io.quarkus.scheduler.common.runtime.util.SchedulerUtils;
import io.quarkus.scheduler.runtime.SchedulerConfig;
import io.quarkus.scheduler.runtime.SchedulerRuntimeConfig;
import io.quarkus.scheduler.spi.JobInstrumenter;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The {@code PACER} scheduler: runs the {@code @Scheduled(executeWith = "PACER")} methods (and those without
 * {@code executeWith} when {@code PACER} is the default implementation), each tick once across all instances that share
 * the Redis. Registered by the build only with Quarkus's composite scheduler, which hands it these methods and its
 * {@code Scheduler} calls.
 * <p>
 * Pausing and resuming a job is stored in Redis, so it holds on every instance; {@link #pause()} and {@link #resume()}
 * pause and resume every {@code PACER} job. A programmatic job ({@link #newJob(String)}) whose task is a class is stored
 * in Redis ({@link JobDefinitionStore}) and run by every instance that shares the Redis, which recreate it at startup and
 * follow
 * its scheduling and unscheduling by polling; one whose task is an instance runs on the instances that scheduled it.
 */
@Typed({ Scheduler.class, RedisTimeSleeper.class })
@Singleton
public class PacerScheduler implements Scheduler, RedisTimeSleeper {

    /** The implementation's name, for {@code @Scheduled(executeWith = ...)}. */
    public static final String IMPLEMENTATION = "PACER";

    private static final Logger LOG = Logger.getLogger(PacerScheduler.class);

    /** How often an instance reads the stored programmatic jobs, to run new ones and stop unscheduled ones. */
    static final long STORED_JOBS_POLL_MILLIS = 5_000;

    private final SchedulerContext context;
    private final SchedulerRuntimeConfig runtimeConfig;
    private final SchedulerConfig schedulerConfig;
    private final Instance<JobInstrumenter> instrumenter;
    private final SchedulerMetrics metrics;
    private final Events events;
    private final JobStateStore store;
    private final JobDefinitionStore storedJobs;
    private final JobTaskClasses taskClasses;
    private final PacerRedis redis;
    private final Vertx vertx;
    private final String instanceId = UUID.randomUUID().toString();
    private final Map<String, ClusterJob> jobs = new ConcurrentSkipListMap<>();
    /** The programmatic jobs on this instance, stored in Redis or not. */
    private final Map<String, ClusterJob> programmatic = new ConcurrentHashMap<>();
    /** The JSON of each stored job this instance runs, as it was stored. */
    private final Map<String, String> storedHere = new ConcurrentHashMap<>();
    /** Stored jobs this instance cannot run (JSON by identity), so that each is reported once. */
    private final Map<String, String> unusable = new ConcurrentHashMap<>();
    /** Moves whenever this instance stores or deletes a job: a read of the stored jobs it overlapped is dropped. */
    private final AtomicLong storedJobsChanges = new AtomicLong();
    private volatile boolean started;
    /** Set once the application has started: jobs scheduled before wait for it. */
    private volatile boolean running;
    private volatile boolean claiming;
    private volatile long pollTimerId = -1;

    PacerScheduler(SchedulerContext context, SchedulerRuntimeConfig runtimeConfig, SchedulerConfig schedulerConfig,
            Instance<JobInstrumenter> instrumenter, Instance<SchedulerMetrics> metrics, PacerRedis redis, PacerConfig config,
            Vertx vertx, JobTaskClasses taskClasses,
            Event<SkippedExecution> skipped, Event<SuccessfulExecution> successful, Event<FailedExecution> failed,
            Event<DelayedExecution> delayed, Event<ScheduledJobPaused> jobPaused, Event<ScheduledJobResumed> jobResumed) {
        this.context = context;
        this.runtimeConfig = runtimeConfig;
        this.schedulerConfig = schedulerConfig;
        this.instrumenter = instrumenter;
        this.metrics = metrics.isResolvable() ? metrics.get() : null;
        this.events = new Events(skipped, successful, failed, delayed, null, null, jobPaused, jobResumed);
        this.redis = redis;
        this.store = new JobStateStore(redis, config.keyPrefix());
        this.storedJobs = new JobDefinitionStore(redis, config.keyPrefix());
        this.taskClasses = taskClasses;
        this.vertx = vertx;
    }

    // After Pacer's connections exist, before the application's own StartupEvent observers (which may schedule jobs).
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
                SkipPredicate predicate = scheduled.skipExecutionIf().equals(Scheduled.Never.class) ? null
                        : SchedulerUtils.instantiateBeanOrClass(scheduled.skipExecutionIf());
                jobs.put(id, clusterJob(id, method.getMethodDescription(), scheduled, times,
                        context.createInvoker(method.getInvokerClassName()), predicate));
                LOG.debugf("PACER job %s: %s", id, times.spec());
            }
        }
        started = true;
        claiming = runtimeConfig.startMode() != SchedulerRuntimeConfig.StartMode.HALTED;
        // The stored jobs are back before the application's observers run (they may check for one), not running yet.
        try {
            onStoredJobs(storedJobs.readAll().await().atMost(awaitAtMost()), storedJobsChanges.get());
        } catch (RuntimeException e) {
            LOG.warnf("PACER scheduler: the programmatic jobs stored in Redis (%s) could not be read at startup (%s); "
                    + "retrying every %d ms", storedJobs.key(), e, STORED_JOBS_POLL_MILLIS);
        }
        pollTimerId = vertx.setPeriodic(STORED_JOBS_POLL_MILLIS, ignored -> pollStoredJobs());
    }

    /**
     * Starts running the jobs once the application has started: a tick due at once (a job recreated from Redis, a
     * missed tick within its grace period) must not run the application's code while its beans are still being set up
     * by the other startup observers.
     */
    synchronized void run(@Observes @Priority(PacerStartup.RUN_APPLICATION_CODE) StartupEvent event) {
        if (!started) {
            return;
        }
        running = true;
        jobs.values().forEach(ClusterJob::start);
    }

    private ClusterJob clusterJob(String id, String methodDescription, Scheduled scheduled, FireTimes times,
            ScheduledInvoker base, SkipPredicate predicate) {
        JobMetrics jobMetrics = metrics == null ? JobMetrics.NONE : metrics.job(id);
        ClusterJob.Definition definition = new ClusterJob.Definition(id, methodDescription, times,
                delayMillis(scheduled), SchedulerUtils.parseExecutionMaxDelayAsMillis(scheduled).orElse(0),
                SchedulerUtils.parseOverdueGracePeriod(scheduled, runtimeConfig.overdueGracePeriod()).toMillis(),
                scheduled.concurrentExecution() == Scheduled.ConcurrentExecution.SKIP,
                invoker(base, predicate, jobMetrics), base);
        return new ClusterJob(definition, store, vertx, this, events, jobMetrics, instanceId);
    }

    /**
     * Counts the ticks a job's {@code skipExecutionIf} skipped: Quarkus's invoker tells only through this event (and
     * wrapping the predicate would change the event's detail, which names the predicate's class).
     */
    void countSkipped(@Observes SkippedExecution skipped) {
        ClusterJob job = jobOf(skipped.getExecution());
        if (job == null) {
            return;
        }
        if (metrics != null && !ClusterJob.RUN_IN_FLIGHT.equals(skipped.getDetail())) {
            job.metrics().skipped(JobMetrics.Skip.SKIP_EXECUTION_IF, 1);
        }
        outcome(job, skipped.getExecution(), JobSnapshot.Result.SKIPPED, skipped.getDetail());
    }

    /** The last outcome of each job on this instance, for {@link #snapshots()}: Quarkus's invoker tells it by event. */
    void onSuccess(@Observes SuccessfulExecution successful) {
        outcome(jobOf(successful.getExecution()), successful.getExecution(), JobSnapshot.Result.SUCCESS, null);
    }

    void onFailure(@Observes FailedExecution failed) {
        outcome(jobOf(failed.getExecution()), failed.getExecution(), JobSnapshot.Result.FAILURE,
                String.valueOf(failed.getException()));
    }

    /** The {@code PACER} job on this instance an execution belongs to; {@code null} for another scheduler's. */
    private ClusterJob jobOf(ScheduledExecution execution) {
        return execution instanceof ClusterExecution ? jobs.get(execution.getTrigger().getId()) : null;
    }

    private static void outcome(ClusterJob job, ScheduledExecution execution, JobSnapshot.Result result,
            String message) {
        if (job != null) {
            job.outcome(new JobSnapshot.Outcome(result, Instant.now(), execution.getScheduledFireTime(), false, message));
        }
    }

    void stop(@Observes ShutdownEvent event) {
        long poll = pollTimerId;
        if (poll != -1) {
            vertx.cancelTimer(poll);
        }
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

    private ScheduledInvoker invoker(ScheduledInvoker base, SkipPredicate predicate, JobMetrics jobMetrics) {
        ScheduledInvoker invoker = new StatusEmitterInvoker(base, events.successExecution, events.failedExecution);
        if (schedulerConfig.tracingEnabled() && instrumenter.isResolvable()) {
            invoker = new InstrumentedInvoker(invoker, instrumenter.get());
        }
        if (jobMetrics != JobMetrics.NONE) {
            invoker = new RunMetricsInvoker(invoker, jobMetrics);
        }
        if (predicate != null) {
            invoker = new SkipPredicateInvoker(invoker, predicate, events.skippedExecution);
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
     * A programmatic job, run each tick once across the instances that run it. Its task given as a class
     * ({@code setTask(Class)}, {@code setAsyncTask(Class)}) stores the job in Redis: every instance sharing the Redis
     * runs it, recreates it at startup, and stops it once {@link #unscheduleJob(String)} deleted it. Its task given as
     * an instance runs on the instances that scheduled it, while one of them is up.
     *
     * @throws IllegalStateException if this instance already has a job of this identity, or the scheduler is not
     *         started
     */
    @Override
    public JobDefinition<?> newJob(String identity) {
        Objects.requireNonNull(identity, "identity");
        if (identity.isBlank()) {
            throw new IllegalArgumentException("The identity of a PACER job must not be blank");
        }
        if (!started) {
            throw new IllegalStateException("The PACER scheduler is not started (quarkus.scheduler.enabled=false, or "
                    + "the application is not started yet): cannot schedule the job " + identity);
        }
        if (jobs.containsKey(identity)) {
            throw new IllegalStateException("A job with this identity is already scheduled: " + identity);
        }
        return new PacerJobDefinition(identity, this);
    }

    Trigger schedule(ProgrammaticJob job) {
        String id = job.identity();
        SyntheticScheduled scheduled = job.scheduled();
        String where = "The PACER job " + id + ": ";
        if (scheduled.cron().isEmpty() && scheduled.every().isEmpty()) {
            throw new IllegalArgumentException(where + "either the 'cron' expression or the 'every' period must be set");
        }
        StoredJobDefinition stored = null;
        if (job.storable()) {
            Class<?> taskClass = job.taskClass() != null ? job.taskClass() : job.asyncTaskClass();
            requireKnown(where, "task", taskClass);
            if (job.skipPredicate() != null && job.skipPredicateClass() == null) {
                throw new IllegalArgumentException(where + "its task is a class, so the job is stored in Redis, but "
                        + "its skip predicate is an instance, which cannot be stored; give the skip predicate as a class "
                        + "(setSkipPredicate(Class))");
            }
            if (job.skipPredicateClass() != null) {
                requireKnown(where, "skip predicate", job.skipPredicateClass());
            }
            stored = new StoredJobDefinition(scheduled, job.taskClass() == null ? null : job.taskClass().getName(),
                    job.asyncTaskClass() == null ? null : job.asyncTaskClass().getName(),
                    job.skipPredicateClass() == null ? null : job.skipPredicateClass().getName(),
                    job.runOnVirtualThread());
        }
        FireTimes times = fireTimes(new CronParser(context.getCronType()), scheduled);
        if (times == null) {
            // Off: as with Quarkus's schedulers, nothing is scheduled.
            LOG.debugf("PACER job %s is off", id);
            return null;
        }
        ScheduledInvoker base = job.task() != null ? JobTaskInvoker.of(job.task(), job.runOnVirtualThread())
                : JobTaskInvoker.of(job.asyncTask());
        ClusterJob clusterJob = clusterJob(id, null, scheduled, times, base, job.skipPredicate());
        if (jobs.putIfAbsent(id, clusterJob) != null) {
            throw new IllegalStateException("A job with this identity is already scheduled: " + id);
        }
        programmatic.put(id, clusterJob);
        if (stored != null) {
            String json = stored.toJson();
            storedJobsChanges.incrementAndGet();
            Uni<Void> put = storedJobs.put(id, json).invoke(() -> {
                storedHere.put(id, json);
                storedJobsChanges.incrementAndGet();
            });
            try {
                await(put, "storing the job " + id);
            } catch (RuntimeException e) {
                jobs.remove(id, clusterJob);
                programmatic.remove(id, clusterJob);
                throw e;
            }
        }
        if (running) {
            // Otherwise run() starts it with the others once the application has started.
            clusterJob.start();
        }
        LOG.debugf("PACER job %s (programmatic%s): %s", id, stored == null ? "" : ", stored in Redis", times.spec());
        return clusterJob.trigger();
    }

    private void requireKnown(String where, String what, Class<?> type) {
        if (!taskClasses.contains(type)) {
            throw new IllegalArgumentException(where + "its " + what + " class " + type.getName() + " was not found "
                    + "by the build, so the job could not be recreated from Redis; make it a class of the application "
                    + "that implements Consumer<ScheduledExecution>, Function<ScheduledExecution, Uni<Void>> or "
                    + "Scheduled.SkipPredicate itself (not an anonymous or local class), or give the task as an instance "
                    + "(setTask(task)) to run the job without storing it");
        }
    }

    private void pollStoredJobs() {
        long changes = storedJobsChanges.get();
        storedJobs.readAll().subscribe().with(read -> onStoredJobs(read, changes),
                failure -> LOG.debugf("PACER scheduler: reading the stored jobs failed: %s", failure));
    }

    /**
     * Runs the stored jobs this instance does not run yet, restarts those whose definition changed, and stops those
     * that were deleted; a read that overlapped a change made here is dropped, the next one sees it.
     */
    private synchronized void onStoredJobs(Map<String, String> read, long changesAtRead) {
        if (changesAtRead != storedJobsChanges.get() || !started) {
            return;
        }
        for (Map.Entry<String, String> here : new HashMap<>(storedHere).entrySet()) {
            String json = read.get(here.getKey());
            if (!here.getValue().equals(json)) {
                stopProgrammatic(here.getKey());
                LOG.debugf("PACER job %s was %s in Redis", here.getKey(), json == null ? "unscheduled" : "changed");
            }
        }
        unusable.keySet().retainAll(read.keySet());
        for (Map.Entry<String, String> entry : read.entrySet()) {
            String id = entry.getKey();
            String json = entry.getValue();
            if (jobs.containsKey(id) || json.equals(unusable.get(id))) {
                continue;
            }
            try {
                ClusterJob job = recreate(StoredJobDefinition.fromJson(json));
                // schedule() may have taken the identity meanwhile: its own job stays.
                if (job == null || jobs.putIfAbsent(id, job) != null) {
                    continue;
                }
                programmatic.put(id, job);
                storedHere.put(id, json);
                unusable.remove(id);
                if (running) {
                    job.start();
                }
                LOG.debugf("PACER job %s recreated from Redis", id);
            } catch (RuntimeException e) {
                unusable.put(id, json);
                LOG.warnf("PACER scheduler: the job %s stored in Redis (%s) cannot run on this instance: %s", id,
                        storedJobs.key(), e.getMessage());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private ClusterJob recreate(StoredJobDefinition stored) {
        SyntheticScheduled scheduled = stored.scheduled();
        FireTimes times = fireTimes(new CronParser(context.getCronType()), scheduled);
        if (times == null) {
            return null;
        }
        ScheduledInvoker base = stored.taskClass() != null
                ? JobTaskInvoker.of((Consumer<ScheduledExecution>) instantiate(stored.taskClass()), stored.virtualThread())
                : JobTaskInvoker.of((Function<ScheduledExecution, Uni<Void>>) instantiate(stored.asyncTaskClass()));
        SkipPredicate predicate = stored.skipPredicateClass() == null ? null
                : (SkipPredicate) instantiate(stored.skipPredicateClass());
        return clusterJob(stored.identity(), null, scheduled, times, base, predicate);
    }

    /** As Quarkus does: the bean of the class if it is one, else a new instance from its public no-arg constructor. */
    private Object instantiate(String className) {
        Class<?> type = taskClasses.get(className);
        if (type == null) {
            throw new IllegalStateException("the class " + className + " is not part of this application (another "
                    + "version of it stored the job?); unschedule the job, or deploy the class");
        }
        return SchedulerUtils.instantiateBeanOrClass(type);
    }

    private ClusterJob stopProgrammatic(String id) {
        ClusterJob job = programmatic.remove(id);
        storedHere.remove(id);
        if (job != null) {
            jobs.remove(id, job);
            job.stop();
        }
        return job;
    }

    /**
     * Removes a programmatic job: stops it here and, for a stored one, deletes it from Redis, so that every other
     * instance stops it when it next reads the stored jobs. {@code @Scheduled} jobs cannot be unscheduled, as with
     * Quarkus's own schedulers.
     *
     * @return the job's trigger, or {@code null} if this instance has no programmatic job of this identity
     */
    @Override
    public Trigger unscheduleJob(String identity) {
        Objects.requireNonNull(identity, "identity");
        if (identity.isEmpty()) {
            return null;
        }
        String id = SchedulerUtils.lookUpPropertyValue(identity);
        ClusterJob job;
        boolean stored;
        synchronized (this) {
            if (jobs.containsKey(id) && !programmatic.containsKey(id)) {
                return null;
            }
            storedJobsChanges.incrementAndGet();
            stored = storedHere.containsKey(id) || unusable.containsKey(id);
            job = stopProgrammatic(id);
        }
        if (stored) {
            // Also one this instance could not run: the definition goes for every instance.
            await(storedJobs.remove(id).invoke(storedJobsChanges::incrementAndGet).replaceWithVoid(),
                    "deleting the job " + id);
        }
        return job == null ? null : job.trigger();
    }

    /** Every job of this instance catches up with Redis time (the test kit moved its clock). */
    @Override
    public CompletionStage<Void> catchUp() {
        return CompletableFuture.allOf(jobs.values().stream().map(ClusterJob::catchUp).toArray(CompletableFuture[]::new));
    }

    /** Every job of this instance starts over from Redis time (the test kit put its clock back). */
    @Override
    public CompletionStage<Void> startOver() {
        return CompletableFuture.allOf(jobs.values().stream().map(ClusterJob::startOver).toArray(CompletableFuture[]::new));
    }

    @Override
    public String implementation() {
        return IMPLEMENTATION;
    }

    /**
     * Every job of this instance by identity, each with its state read from Redis now (for the Dev UI).
     *
     * @return the jobs sorted by identity; empty when there is none
     */
    public Uni<List<JobSnapshot>> snapshots() {
        List<Uni<JobSnapshot>> reads = new ArrayList<>();
        for (ClusterJob job : jobs.values()) {
            reads.add(job.snapshot(storedHere.containsKey(job.id())));
        }
        if (reads.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(reads).andFailFast().map(List::copyOf);
    }

    /**
     * Runs a job's method (or task) once on this instance now, whether the job is paused or not, outside its ticks (for
     * the Dev UI): no tick is claimed, the skip predicate is not asked and no execution event is fired; the outcome
     * shows in {@link #snapshots()}.
     *
     * @return {@code false} if this instance has no job of this identity
     */
    public boolean runNow(String identity) {
        ClusterJob job = job(identity);
        if (job == null) {
            return false;
        }
        job.runNow();
        return true;
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
        await(change, "pausing or resuming");
    }

    private void await(Uni<Void> change, String what) {
        if (Context.isOnEventLoopThread()) {
            change.subscribe().with(ignored -> {
            }, failure -> LOG.warnf("PACER scheduler: %s failed: %s", what, failure));
            return;
        }
        change.await().atMost(awaitAtMost());
    }

}
