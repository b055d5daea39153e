package io.quarkiverse.pacer.runtime.scheduler;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.event.Event;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.scheduler.JobStateStore.Claim;
import io.quarkiverse.pacer.runtime.scheduler.JobStateStore.ClaimResult;
import io.quarkus.scheduler.SkippedExecution;
import io.quarkus.scheduler.Trigger;
import io.quarkus.scheduler.common.runtime.Events;
import io.quarkus.scheduler.common.runtime.ScheduledInvoker;
import io.vertx.core.Vertx;

/**
 * One schedule of one {@code @Scheduled(executeWith = "PACER")} method on this instance. Its loop reads the job's state
 * in Redis, sleeps until the next tick is due by Redis time, and then competes for the tick with one compare-and-set
 * (scheduler-claim.lua); the winner runs it, every other instance sees the next tick instead.
 */
final class ClusterJob {

    private static final Logger LOG = Logger.getLogger(ClusterJob.class);

    /** The longest an instance sleeps between two reads: a pause, resume or new schedule is seen within it. */
    static final long MAX_WAIT_MILLIS = 60_000;
    /** After a failed read or claim (Redis unreachable), the next attempt. */
    static final long RETRY_MILLIS = 1_000;
    /** The lease of a running tick with concurrentExecution = SKIP, renewed every third of it while the run lasts. */
    static final long LEASE_MILLIS = 30_000;

    /** Everything about the schedule that does not change at runtime. */
    record Definition(String id, String methodDescription, FireTimes times, long delayMillis, long graceMillis,
            boolean skipConcurrent, ScheduledInvoker invoker) {
    }

    private final Definition definition;
    private final JobStateStore store;
    private final String key;
    private final long ttlMillis;
    private final long periodMillis;
    private final Vertx vertx;
    private final PacerScheduler scheduler;
    private final Event<SkippedExecution> skippedEvent;
    private final String tokenPrefix;
    private final AtomicLong runs = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ClusterTrigger trigger = new ClusterTrigger();
    private volatile JobState state;
    /** Redis time minus the JVM clock, from the last read: for {@link Trigger#isOverdue()} only. */
    private volatile long clockOffset;
    private volatile long timerId = -1;
    private volatile boolean stopped;

    ClusterJob(Definition definition, JobStateStore store, Vertx vertx, PacerScheduler scheduler,
            Event<SkippedExecution> skippedEvent, String instanceId) {
        this.definition = definition;
        this.store = store;
        this.key = store.key(definition.id());
        this.vertx = vertx;
        this.scheduler = scheduler;
        this.skippedEvent = skippedEvent;
        this.tokenPrefix = instanceId + ":";
        long first = definition.times().after(System.currentTimeMillis());
        this.periodMillis = definition.times().after(first) - first;
        // The state outlives every instance that schedules the job by three periods, and at least an hour.
        this.ttlMillis = Math.max(3_600_000L, 3 * periodMillis);
    }

    String id() {
        return definition.id();
    }

    String key() {
        return key;
    }

    long ttlMillis() {
        return ttlMillis;
    }

    Trigger trigger() {
        return trigger;
    }

    /** Paused on every instance, as this instance last read it. */
    boolean pausedAsLastRead() {
        JobState current = state;
        return current != null && current.paused();
    }

    /** Runs of this job started on this instance. */
    long runs() {
        return runs.get();
    }

    void start() {
        check();
    }

    void stop() {
        stopped = true;
        long id = timerId;
        if (id != -1) {
            vertx.cancelTimer(id);
        }
    }

    /** Reads again at once if the job is sleeping (after a pause or resume through this instance). */
    synchronized void checkNow() {
        long id = timerId;
        // A timer that already fired, or a read in flight, is the loop itself: it must not get a twin.
        if (id != -1 && vertx.cancelTimer(id)) {
            timerId = -1;
            check();
        }
    }

    private void check() {
        if (stopped) {
            return;
        }
        store.read(key, ttlMillis).subscribe().with(this::onState, this::onFailure);
    }

    private void onFailure(Throwable failure) {
        LOG.debugf("PACER job %s: Redis call failed, retrying in %d ms: %s", definition.id(), RETRY_MILLIS, failure);
        wakeIn(RETRY_MILLIS);
    }

    private void onState(JobState read) {
        state = read;
        clockOffset = read.now() - System.currentTimeMillis();
        FireTimes times = definition.times();
        String spec = times.spec();
        if (read.next() == null || !spec.equals(read.spec())) {
            if (read.next() != null) {
                LOG.warnf("PACER job %s: the schedule stored in Redis (%s) differs from this instance's (%s); "
                        + "the job starts again with this instance's", definition.id(), read.spec(), spec);
            }
            long first = times.first(read.now(), definition.delayMillis());
            claim(null, first, null, read.now());
            return;
        }
        if (read.paused() || !scheduler.isClaiming()) {
            wakeIn(periodMillis);
            return;
        }
        long next = read.next();
        if (read.now() < next) {
            wakeIn(next - read.now());
            return;
        }
        long earliest = read.now() - definition.graceMillis();
        Long run;
        if (next >= earliest) {
            run = next;
        } else {
            long late = times.firstAtOrAfter(next, earliest);
            run = late <= read.now() ? late : null;
        }
        long newNext = run != null ? times.after(run) : times.firstAtOrAfter(next, read.now() + 1);
        if (run == null || run != next) {
            LOG.warnf("PACER job %s: the ticks from %s to %s were missed by more than the overdue grace period "
                    + "(%d ms) and are skipped", definition.id(), Instant.ofEpochMilli(next),
                    Instant.ofEpochMilli(run == null ? newNext : run), definition.graceMillis());
        }
        claim(next, newNext, run, read.now());
    }

    private void claim(Long expectedNext, long newNext, Long run, long readAt) {
        String token = tokenPrefix + runs.get();
        store.claim(key, expectedNext, definition.times().spec(), newNext, run, definition.skipConcurrent(),
                LEASE_MILLIS, token, ttlMillis).subscribe().with(result -> {
                    onClaim(result, run, token);
                    if (result.claim() == Claim.LOST) {
                        wakeIn(0);
                    } else {
                        wakeIn(newNext - result.now());
                    }
                }, this::onFailure);
    }

    private void onClaim(ClaimResult result, Long run, String token) {
        if (run == null) {
            return;
        }
        ClusterExecution execution = new ClusterExecution(trigger, Instant.ofEpochMilli(result.now()),
                Instant.ofEpochMilli(run));
        if (result.claim() == Claim.BUSY) {
            Events.fire(skippedEvent, new SkippedExecution(execution,
                    "the previous run is still running on an instance (concurrentExecution = SKIP)"));
        } else if (result.claim() == Claim.CLAIMED) {
            execute(execution, token);
        }
    }

    private void execute(ClusterExecution execution, String token) {
        runs.incrementAndGet();
        inFlight.incrementAndGet();
        long renewal = definition.skipConcurrent()
                ? vertx.setPeriodic(LEASE_MILLIS / 3, id -> store.renewLease(key, token, LEASE_MILLIS).subscribe()
                        .with(held -> {
                        }, failure -> LOG.debugf("PACER job %s: lease renewal failed: %s", definition.id(), failure)))
                : -1;
        JobRun.start(definition.invoker(), execution, vertx).whenComplete((ignored, failure) -> {
            inFlight.decrementAndGet();
            if (renewal != -1) {
                vertx.cancelTimer(renewal);
                store.releaseLease(key, token).subscribe().with(held -> {
                }, releaseFailure -> LOG.debugf("PACER job %s: releasing the lease failed, it expires by itself: %s",
                        definition.id(), releaseFailure));
            }
        });
    }

    private synchronized void wakeIn(long millis) {
        if (stopped) {
            return;
        }
        long delay = Math.max(1, Math.min(millis, MAX_WAIT_MILLIS));
        timerId = vertx.setTimer(delay, this::onTimer);
    }

    private void onTimer(long id) {
        synchronized (this) {
            if (timerId != id) {
                return;
            }
            timerId = -1;
        }
        check();
    }

    /** The job as {@link io.quarkus.scheduler.Scheduler#getScheduledJobs()} shows it, from the last read. */
    final class ClusterTrigger implements Trigger {

        @Override
        public String getId() {
            return definition.id();
        }

        @Override
        public Instant getNextFireTime() {
            JobState current = state;
            return current == null || current.next() == null ? null : Instant.ofEpochMilli(current.next());
        }

        @Override
        public Instant getPreviousFireTime() {
            JobState current = state;
            return current == null || current.last() == null ? null : Instant.ofEpochMilli(current.last());
        }

        @Override
        public boolean isOverdue() {
            JobState current = state;
            if (current == null || current.next() == null || current.paused()) {
                return false;
            }
            return System.currentTimeMillis() + clockOffset > current.next() + definition.graceMillis();
        }

        @Override
        public String getMethodDescription() {
            return definition.methodDescription();
        }

        @Override
        public String toString() {
            return "PACER trigger " + definition.id() + " (" + definition.times().spec() + ")";
        }
    }
}
