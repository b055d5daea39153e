package io.quarkiverse.pacer.runtime.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.event.Event;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.SparseWarning;
import io.quarkiverse.pacer.runtime.redis.CatchUps;
import io.quarkiverse.pacer.runtime.scheduler.JobStateStore.Claim;
import io.quarkiverse.pacer.runtime.scheduler.JobStateStore.ClaimResult;
import io.quarkus.scheduler.DelayedExecution;
import io.quarkus.scheduler.SkippedExecution;
import io.quarkus.scheduler.Trigger;
import io.quarkus.scheduler.common.runtime.Events;
import io.quarkus.scheduler.common.runtime.ScheduledInvoker;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * One schedule of one {@code @Scheduled(executeWith = "PACER")} method on this instance. Its loop reads the job's state
 * in Redis, sleeps until the next tick is due by Redis time, and then competes for the tick with one compare-and-set
 * (scheduler-claim.lua); the winner runs it, every other instance sees the next tick instead. A claim that did not lose
 * shows the job's state as a read would, so the instance claims its next tick without reading first, unless a catch-up,
 * a pause or resume here, an expired lease or missed ticks call for a read. A claimed tick holds a
 * lease in Redis, renewed while it runs and released when it ends; a run whose lease expired (its instance died) is
 * taken over by the first instance that sees it (scheduler-rerun.lua) and runs again with the tick's own fire time.
 */
final class ClusterJob {

    private static final Logger LOG = Logger.getLogger(ClusterJob.class);
    /** Thousands of jobs falling behind at once must not write thousands of warnings a second. */
    private static final SparseWarning SKIPPED = new SparseWarning(LOG, Duration.ofSeconds(10));

    /** The longest an instance sleeps between two reads: a pause, resume or new schedule is seen within it. */
    static final long MAX_WAIT_MILLIS = 60_000;
    /** After a failed read or claim (Redis unreachable), the next attempt. */
    static final long RETRY_MILLIS = 1_000;
    /**
     * The lease of a running tick, renewed every third of it while the run lasts: a tick whose instance died runs again
     * about this long after its last renewal.
     */
    static final long LEASE_MILLIS = 10_000;
    /** Attempts to release the lease of a run that ended (about half a minute with back-off) before it is left to expire. */
    static final int RELEASE_ATTEMPTS = 30;

    /** The detail of the {@code SkippedExecution} of a tick skipped by {@code concurrentExecution = SKIP}. */
    static final String RUN_IN_FLIGHT = "the previous run is still running on an instance (concurrentExecution = SKIP)";

    /**
     * Everything about the schedule that does not change at runtime: {@code invoker} runs a tick (events, tracing,
     * metrics, skip predicate), {@code task} is the method or task alone, for a run started by hand;
     * {@code maxDelayMillis} is {@code executionMaxDelay} (0 for none).
     */
    record Definition(String id, String methodDescription, FireTimes times, long delayMillis, long maxDelayMillis,
            long graceMillis,
            boolean skipConcurrent, ScheduledInvoker invoker, ScheduledInvoker task) {
    }

    private final Definition definition;
    private final JobStateStore store;
    private final String key;
    private final long ttlMillis;
    private final long periodMillis;
    private final Vertx vertx;
    private final PacerScheduler scheduler;
    private final Event<SkippedExecution> skippedEvent;
    private final Event<DelayedExecution> delayedEvent;
    private final JobMetrics metrics;
    private final String tokenPrefix;
    private final AtomicLong runs = new AtomicLong();
    private final AtomicLong tokens = new AtomicLong();
    private final AtomicBoolean loopStarted = new AtomicBoolean();
    /** The members of the runs started here whose lease is not released yet. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final ClusterTrigger trigger = new ClusterTrigger();
    private volatile JobState state;
    /**
     * The job's state as this instance's last claim of a tick left it, when the next tick may be claimed without a
     * read; {@code null} when the next check reads.
     */
    private volatile Claimed claimed;
    /** Redis time minus the JVM clock, from the last read: for {@link Trigger#isOverdue()} only. */
    private volatile long clockOffset;
    private volatile long timerId = -1;
    private volatile boolean stopped;
    private volatile JobSnapshot.Outcome lastOutcome;
    /** The catch-ups the test kit asked for after moving its clock; guarded by {@code this}. */
    private final CatchUps catchUps = new CatchUps();

    ClusterJob(Definition definition, JobStateStore store, Vertx vertx, PacerScheduler scheduler,
            Events events, JobMetrics metrics, String instanceId) {
        this.definition = definition;
        this.store = store;
        this.key = store.key(definition.id());
        this.vertx = vertx;
        this.scheduler = scheduler;
        this.skippedEvent = events.skippedExecution;
        this.delayedEvent = events.delayedExecution;
        this.metrics = metrics;
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

    JobMetrics metrics() {
        return metrics;
    }

    /** Runs of this job started on this instance. */
    long runs() {
        return runs.get();
    }

    /**
     * The state a claim left, and when the claim was sent (JVM clock): Redis time is at most {@code state.now()} plus
     * the time since, so the claim without a read never runs a tick before it is due by Redis time, and leaves a tick
     * that may be overdue to a read.
     */
    private record Claimed(JobState state, long sentMillis) {
    }

    /** Starts the job's loop; a second call does nothing, so the job never runs two loops. */
    void start() {
        if (loopStarted.compareAndSet(false, true)) {
            check();
        }
    }

    /** Records how a run (or a skipped tick) on this instance ended. */
    void outcome(JobSnapshot.Outcome outcome) {
        lastOutcome = outcome;
    }

    /** The job as stored in Redis now, with what this instance knows of its runs. */
    Uni<JobSnapshot> snapshot(boolean storedInRedis) {
        FireTimes times = definition.times();
        Long every = times instanceof FireTimes.Every e ? e.period() : null;
        FireTimes.CronTimes cron = times instanceof FireTimes.CronTimes c ? c : null;
        return store.read(key, ttlMillis).map(read -> new JobSnapshot(definition.id(), definition.methodDescription(),
                storedInRedis, every, cron == null ? null : cron.expression(),
                cron == null ? null : cron.zone().getId(), Instant.ofEpochMilli(read.now()), instant(read.next()),
                instant(read.last()), read.paused(), read.run() == null ? null : Instant.ofEpochMilli(read.run().tick()),
                runs.get(), lastOutcome));
    }

    private static Instant instant(Long millis) {
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }

    /**
     * Runs the method (or task) once on this instance now, outside the ticks: no tick is claimed, the skip predicate is
     * not asked and no execution event is fired, as with Quarkus's own scheduler when a method is run from the Dev
     * UI. The run's execution has this job's trigger and the current time as its fire times.
     */
    void runNow() {
        Instant now = Instant.now();
        JobRun.start(definition.task(), new ClusterExecution(trigger, now, now), vertx).whenComplete((ignored, thrown) -> {
            Throwable failure = thrown instanceof CompletionException && thrown.getCause() != null ? thrown.getCause()
                    : thrown;
            if (failure != null) {
                LOG.warnf(failure, "PACER job %s: the run started by hand failed", definition.id());
            }
            lastOutcome = new JobSnapshot.Outcome(failure == null ? JobSnapshot.Result.SUCCESS : JobSnapshot.Result.FAILURE,
                    Instant.now(), now, true, failure == null ? null : failure.toString());
        });
    }

    void stop() {
        stopped = true;
        long id = timerId;
        if (id != -1) {
            vertx.cancelTimer(id);
        }
        synchronized (this) {
            catchUps.completeAll();
        }
    }

    /** Reads again at once if the job is sleeping (after a pause or resume through this instance). */
    synchronized void checkNow() {
        long id = timerId;
        // A timer that already fired, or a read in flight, is the loop itself: it must not get a twin.
        if (id != -1 && vertx.cancelTimer(id)) {
            timerId = -1;
            claimed = null;
            check();
        }
    }

    private void check() {
        if (stopped) {
            return;
        }
        Claimed known = claimed;
        claimed = null;
        if (known != null && claimNext(known)) {
            return;
        }
        synchronized (this) {
            catchUps.reading();
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
            claim(null, first, null, 0, null);
            return;
        }
        if (read.paused() || !scheduler.isClaiming()) {
            caughtUp();
            wakeIn(periodMillis);
            return;
        }
        RunLease lease = read.run();
        if (lease != null && lease.expiredAt(read.now())) {
            rerun(lease);
            return;
        }
        long next = read.next();
        if (read.now() < next) {
            caughtUp();
            wakeIn(untilNextLook(next, lease, read.now()));
            return;
        }
        DueTick step = DueTick.of(times, next, read.now(), definition.graceMillis());
        Long run = step.run();
        if (step.skipped()) {
            SKIPPED.warnf("PACER job %s: the ticks from %s to %s were missed by more than the overdue grace period "
                    + "(%d ms) and are skipped", definition.id(), Instant.ofEpochMilli(next),
                    Instant.ofEpochMilli(run == null ? step.newNext() : run), definition.graceMillis());
        }
        claim(next, step.newNext(), run, step.missed(), null);
    }

    /**
     * Claims the next tick from the state the last claim left, without a read, when the ordinary case holds: the tick
     * is due and within the grace period by Redis time (as bounded from the last claim), no lease known is expired, and
     * no catch-up waits. The claim's compare-and-set still decides: when the job changed meanwhile (paused, moved on,
     * rescheduled), or the tick is past its grace period by Redis time (the test kit moved the clock), it loses, and the
     * loop reads.
     *
     * @return {@code false} when a read must decide instead
     */
    private boolean claimNext(Claimed known) {
        if (!scheduler.isClaiming() || catchingUp()) {
            return false;
        }
        JobState state = known.state();
        long now = state.now() + System.currentTimeMillis() - known.sentMillis();
        RunLease lease = state.run();
        if (now < state.next() || lease != null && lease.expiredAt(now)) {
            return false;
        }
        DueTick step = DueTick.of(definition.times(), state.next(), now, definition.graceMillis());
        if (step.run() == null || step.skipped()) {
            return false;
        }
        claim(state.next(), step.newNext(), step.run(), 0, step.run() + definition.graceMillis());
        return true;
    }

    /**
     * @param missed ticks before {@code run} (or {@code newNext}) skipped as overdue, counted if this claim wins
     * @param runBy the latest Redis time {@code run} may start at, {@code null} when a read just decided it
     */
    private void claim(Long expectedNext, long newNext, Long run, long missed, Long runBy) {
        String member = run == null ? "" : RunLease.member(run, 1, nextToken());
        long sentMillis = System.currentTimeMillis();
        store.claim(key, expectedNext, definition.times().spec(), newNext, run, definition.skipConcurrent(),
                LEASE_MILLIS, member, ttlMillis, runBy).subscribe().with(result -> {
                    if (missed > 0 && result.claim() != Claim.LOST) {
                        metrics.skipped(JobMetrics.Skip.OVERDUE, missed);
                    }
                    onClaim(result, run, member);
                    if (result.claim() == Claim.LOST) {
                        wakeIn(0);
                    } else if (run == null) {
                        // A claim without a run ignores a pause: the next check reads.
                        wakeIn(catchingUp() ? 0 : newNext - result.now());
                    } else {
                        JobState before = state;
                        JobState after = new JobState(result.now(), newNext, definition.times().spec(), false,
                                result.claim() == Claim.CLAIMED ? run : before == null ? null : before.last(),
                                result.run());
                        state = after;
                        claimed = new Claimed(after, sentMillis);
                        // A catch-up completes on a read that finds nothing due: it also shows the moved-on state.
                        wakeIn(catchingUp() ? 0 : untilNextLook(newNext, after.run(), result.now()));
                    }
                }, this::onFailure);
    }

    private String nextToken() {
        return tokenPrefix + tokens.incrementAndGet();
    }

    /** Takes over a run whose lease expired, and runs its tick again; then reads again (more may have expired). */
    private void rerun(RunLease expired) {
        long tick = expired.tick();
        int start = expired.start() + 1;
        String member = start > RunLease.MAX_STARTS ? null : RunLease.member(tick, start, nextToken());
        store.rerun(key, expired.member(), member, LEASE_MILLIS, ttlMillis).subscribe().with(result -> {
            if (result.claim() == Claim.CLAIMED) {
                LOG.warnf("PACER job %s: the lease of the run of the tick of %s expired (its instance stopped, or "
                        + "could not reach Redis for %d ms); this instance runs the tick again", definition.id(),
                        Instant.ofEpochMilli(tick), LEASE_MILLIS);
                metrics.rerun();
                execute(new ClusterExecution(trigger, Instant.ofEpochMilli(result.now()), Instant.ofEpochMilli(tick)),
                        member);
            } else if (result.claim() == Claim.DROPPED) {
                LOG.warnf("PACER job %s: the tick of %s was started %d times and each time its instance stopped "
                        + "before the run ended; it is not run again", definition.id(), Instant.ofEpochMilli(tick),
                        RunLease.MAX_STARTS);
            }
            wakeIn(0);
        }, this::onFailure);
    }

    private void onClaim(ClaimResult result, Long run, String member) {
        if (run == null) {
            return;
        }
        ClusterExecution execution = new ClusterExecution(trigger, Instant.ofEpochMilli(result.now()),
                Instant.ofEpochMilli(run));
        if (result.claim() == Claim.BUSY) {
            metrics.skipped(JobMetrics.Skip.CONCURRENT_EXECUTION, 1);
            Events.fire(skippedEvent, new SkippedExecution(execution, RUN_IN_FLIGHT));
        } else if (result.claim() == Claim.CLAIMED) {
            metrics.lateness(result.now() - run);
            execute(execution, member);
        }
    }

    /**
     * Runs a claimed tick, renewing its lease while it runs and releasing it when the run ends, whether it succeeded or
     * failed: only a run that never ended is run again. With {@code executionMaxDelay} the run starts after a random
     * delay below it, as with Quarkus's schedulers; the lease is held from the claim, so that no other instance takes
     * the tick meanwhile, and a tick whose instance stops during the delay runs again elsewhere once its lease expired.
     */
    private void execute(ClusterExecution execution, String member) {
        runs.incrementAndGet();
        running.add(member);
        AtomicBoolean ended = new AtomicBoolean();
        long renewal = vertx.setPeriodic(LEASE_MILLIS / 3, id -> store.renewLease(key, member, LEASE_MILLIS)
                .subscribe().with(held -> {
                    // After the end, a renewal may come after the release: not a lost lease.
                    if (!held && !ended.get()) {
                        vertx.cancelTimer(id);
                        LOG.warnf("PACER job %s: the run of the tick of %s lost its lease (this instance could not "
                                + "renew it in time); another instance may run the tick again", definition.id(),
                                execution.getScheduledFireTime());
                    }
                }, failure -> LOG.debugf("PACER job %s: lease renewal failed: %s", definition.id(), failure)));
        long maxDelay = definition.maxDelayMillis();
        long delay = maxDelay > 0 ? ThreadLocalRandom.current().nextLong(maxDelay) : 0;
        if (delay > 0) {
            Events.fire(delayedEvent, new DelayedExecution(execution, delay));
            vertx.setTimer(delay, ignored -> run(execution, member, ended, renewal));
        } else {
            run(execution, member, ended, renewal);
        }
    }

    private void run(ClusterExecution execution, String member, AtomicBoolean ended, long renewal) {
        JobRun.start(definition.invoker(), execution, vertx).whenComplete((ignored, failure) -> {
            ended.set(true);
            // An unreleased lease would expire and run the tick again: retry, renewing the lease meanwhile.
            store.releaseLease(key, member).onFailure().retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(1))
                    .atMost(RELEASE_ATTEMPTS).subscribe().with(held -> {
                        vertx.cancelTimer(renewal);
                        running.remove(member);
                    }, releaseFailure -> {
                        vertx.cancelTimer(renewal);
                        running.remove(member);
                        LOG.warnf("PACER job %s: the run of the tick of %s ended, but its lease could not be released "
                                + "(%s); another instance may run the tick again once it expires", definition.id(),
                                execution.getScheduledFireTime(), releaseFailure);
                    });
        });
    }

    private synchronized void wakeIn(long millis) {
        if (stopped) {
            return;
        }
        // A catch-up asked for while this pass was reading needs a read of its own, at once.
        long delay = catchUps.askedSinceRead() ? 1 : Math.max(1, Math.min(millis, MAX_WAIT_MILLIS));
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

    /**
     * How long until the job is looked at again: its next tick, or sooner while a run is in flight anywhere, when that
     * run's lease would end: if its instance died, the tick runs again soon after, not only at the next tick.
     */
    private static long untilNextLook(long next, RunLease lease, long now) {
        return (lease == null ? next : Math.min(next, lease.deadline() + 1)) - now;
    }

    /**
     * After the test kit moved the clock: renews the leases of the runs in progress here (moving the clock is no stall of
     * theirs), then reads at once and claims what became due.
     *
     * @return completes once a read made after this call found no tick due (or the job paused): every tick the clock
     *         passed has been claimed and its run started, or skipped by the missed-tick rules
     */
    CompletableFuture<Void> catchUp() {
        CompletableFuture<Void> done;
        synchronized (this) {
            if (stopped) {
                return CompletableFuture.completedFuture(null);
            }
            done = catchUps.ask();
        }
        List<Uni<Boolean>> renewals = new ArrayList<>();
        running.forEach(member -> renewals.add(store.renewLease(key, member, LEASE_MILLIS)));
        Uni<Void> renewed = renewals.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.join().all(renewals).andCollectFailures().replaceWithVoid();
        renewed.subscribe().with(ignored -> checkNow(), failure -> checkNow());
        return done;
    }

    /**
     * After the test kit put its clock back: a next tick further ahead than one tick from Redis time now (it was
     * computed on the moved clock) moves back to that tick, with the claim's compare-and-set; then a catch-up.
     */
    CompletableFuture<Void> startOver() {
        FireTimes times = definition.times();
        return store.read(key, ttlMillis).flatMap(read -> {
            if (read.next() == null || !times.spec().equals(read.spec()) || read.next() <= times.after(read.now())) {
                return Uni.createFrom().voidItem();
            }
            return store.claim(key, read.next(), times.spec(), times.after(read.now()), null, false, LEASE_MILLIS, "",
                    ttlMillis, null).replaceWithVoid();
        }).subscribeAsCompletionStage().thenCompose(ignored -> catchUp());
    }

    private synchronized boolean catchingUp() {
        return catchUps.pending();
    }

    /** A read found nothing due: the catch-ups it was made after are done. */
    private synchronized void caughtUp() {
        catchUps.caughtUp();
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
