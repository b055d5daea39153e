package io.quarkiverse.pacer.runtime.delay.recurring;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.PacerStartup;
import io.quarkiverse.pacer.runtime.SparseWarning;
import io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.delay.HandlersByQueue;
import io.quarkiverse.pacer.runtime.delay.consumer.ConsumerSettings;
import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.quarkiverse.pacer.runtime.redis.CatchUps;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisSubscription;
import io.quarkiverse.pacer.runtime.redis.RedisTimeSleeper;
import io.quarkiverse.pacer.runtime.scheduler.DueTick;
import io.quarkiverse.pacer.runtime.scheduler.FireTimes;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.runtime.SchedulerRuntimeConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Fires the ticks of the recurring schedules on an instance that consumes delay queues. Its loop reads what is due
 * (recurring-read.lua, time from Redis), computes each due schedule's next fire time ({@link DueTick}, the PACER
 * scheduler's rule for missed ticks) and moves the schedules on with one compare-and-set (recurring-fire.lua), which
 * records each fired tick as pending; {@link TickDelivery} then stores each tick's message in its delay queue, while
 * the next pass already reads, and takes over the pending ticks whose lease expired. The loop sleeps until the
 * earliest fire time or lease deadline, at most the delay queues' poll interval, and wakes early when another instance
 * announces an earlier schedule. What happens to the ticks it fires is counted per delay queue in
 * {@link RecurringMetrics}.
 */
@Singleton
public class RecurringFirer implements RedisSubscription.Listener, RedisTimeSleeper {

    private static final Logger LOG = Logger.getLogger(RecurringFirer.class);
    /** Thousands of schedules falling behind at once must not write thousands of warnings a second. */
    private static final SparseWarning SKIPPED = new SparseWarning(LOG, Duration.ofSeconds(10));

    /** The most due schedules, and the most expired ticks, one pass handles. */
    static final int BATCH = 100;
    /** Passes whose fired ticks may be stored while the next pass reads. */
    static final int MAX_PASSES_STORING = 4;
    /** After a failed Redis call, the next attempt. */
    static final long RETRY_MILLIS = 1_000;
    /** Added to the longest a store of one message may take, for a fired tick's lease. */
    static final long LEASE_MARGIN_MILLIS = 20_000;

    private final RedisRecurringSchedules schedules;
    private final PacerRedis redis;
    private final HandlersByQueue handlers;
    private final DelayedRuntimeConfig delayed;
    private final long defaultGraceMillis;
    private final long leaseMillis;
    private final long maxWaitMillis;
    private final Vertx vertx;
    private final TickDelivery delivery;
    private final RecurringMetrics metrics;
    private RedisSubscription wakeUps;
    private long timerId = -1;
    private boolean polling;
    private boolean again;
    private volatile boolean stopped;
    private boolean started;
    /** Passes whose fired ticks are still being stored ({@link #deliver}). */
    private int storing;
    /** The catch-ups the test kit asked for after moving its clock; guarded by {@code this}. */
    private final CatchUps catchUps = new CatchUps();

    RecurringFirer(RedisRecurringSchedules schedules, RedisDelayedQueue queue, PacerRedis redis,
            HandlersByQueue handlers, PacerConfig config, SchedulerRuntimeConfig scheduler, Vertx vertx,
            Instance<RecurringMetrics> metrics) {
        this.schedules = schedules;
        this.redis = redis;
        this.handlers = handlers;
        this.delayed = config.delayed();
        this.defaultGraceMillis = scheduler.overdueGracePeriod().toMillis();
        // A store is retried for up to the producer timeout, then may wait for a replica: the lease outlasts both.
        this.leaseMillis = delayed.producerTimeout().toMillis() + delayed.durabilityTimeout().toMillis()
                + LEASE_MARGIN_MILLIS;
        this.maxWaitMillis = delayed.pollInterval().toMillis();
        this.vertx = vertx;
        this.metrics = metrics.isResolvable() ? metrics.get() : RecurringMetrics.NONE;
        this.delivery = new TickDelivery(schedules.store(), queue, leaseMillis, this.metrics);
    }

    void start(@Observes @Priority(PacerStartup.RUN_APPLICATION_CODE) StartupEvent event) {
        if (handlers.isEmpty() || !ConsumerSettings.consumes(delayed)) {
            LOG.debugf("This instance consumes no delay queue: it fires no recurring schedule");
            return;
        }
        wakeUps = new RedisSubscription(redis, List.of(schedules.store().keys().wakeChannel),
                "recurring schedule wake-ups; relying on polling", this).reopeningWith(vertx);
        wakeUps.open();
        synchronized (this) {
            started = true;
        }
        poll();
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        synchronized (this) {
            if (timerId != -1) {
                vertx.cancelTimer(timerId);
                timerId = -1;
            }
            catchUps.completeAll();
        }
        if (wakeUps != null) {
            wakeUps.close();
        }
    }

    @Override
    public void onMessage(String channel, String message) {
        poll();
    }

    @Override
    public void onSubscribed() {
        poll(); // changes announced while the subscription was down were missed
    }

    /** Reads what is due now, unless a pass is running (it then reads again when it ends). */
    void poll() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            if (polling) {
                again = true;
                return;
            }
            polling = true;
            again = false;
            catchUps.reading();
            if (timerId != -1) {
                vertx.cancelTimer(timerId);
                timerId = -1;
            }
        }
        schedules.store().read(BATCH).flatMap(this::handle).subscribe().with(sleep -> passEnded(sleep, sleep > 0),
                failure -> {
                    LOG.debugf("Recurring schedules: Redis call failed, retrying in %d ms: %s", RETRY_MILLIS, failure);
                    passEnded(RETRY_MILLIS, false);
                });
    }

    /**
     * After the test kit moved the clock: a pass at once, and more until one finds nothing due.
     *
     * @return completes once a pass started after this call found nothing to do: every tick the clock passed has been
     *         fired and stored in its delay queue, or skipped by the missed-tick rules; at once on an instance that
     *         fires no schedule
     */
    @Override
    public CompletionStage<Void> catchUp() {
        CompletableFuture<Void> done;
        synchronized (this) {
            if (!started || stopped) {
                return CompletableFuture.completedFuture(null);
            }
            done = catchUps.ask();
        }
        poll();
        return done;
    }

    /**
     * After the test kit put its clock back: the schedules the moved clock pushed ahead start over from Redis time now
     * ({@link RedisRecurringSchedules#startOver()}), then a catch-up.
     *
     * @return completes as {@link #catchUp()} does
     */
    @Override
    public CompletionStage<Void> startOver() {
        synchronized (this) {
            if (!started || stopped) {
                return CompletableFuture.completedFuture(null);
            }
        }
        return schedules.startOver().subscribeAsCompletionStage().thenCompose(ignored -> catchUp());
    }

    /** @return how long to sleep before the next pass: 0 after a pass that did something, to read again at once */
    private Uni<Long> handle(RecurringStore.Work work) {
        List<RecurringStore.Move> moves = new ArrayList<>(work.due().size());
        List<DueTick> steps = new ArrayList<>(work.due().size());
        List<Uni<Void>> passes = new ArrayList<>(2);
        for (RecurringStore.Due due : work.due()) {
            if (due.definition() == null) {
                // An index entry without its definition: recurring-fire.lua removes it.
                moves.add(new RecurringStore.Move(due.id(), due.next(), "", due.next(), null));
                steps.add(new DueTick(null, due.next(), 0));
                continue;
            }
            DueTick step = step(due, work.now());
            if (step != null) {
                moves.add(new RecurringStore.Move(due.id(), due.next(), StoredDelivery.parse(due.definition()).spec(),
                        step.newNext(), step.run()));
                steps.add(step);
            } else {
                passes.add(pauseUnreadable(due.id()));
            }
        }
        if (!moves.isEmpty()) {
            passes.add(schedules.store().fire(moves, leaseMillis).flatMap(fired -> {
                List<TickDelivery.Tick> ticks = new ArrayList<>();
                for (int i = 0; i < fired.definitions().size(); i++) {
                    String definition = fired.definitions().get(i);
                    if (definition == null) {
                        continue; // another instance moved it first
                    }
                    RecurringStore.Move move = moves.get(i);
                    DueTick step = steps.get(i);
                    warnSkipped(move, step);
                    StoredDelivery stored = TickDelivery.read(move.id(), move.tick(), definition);
                    if (stored != null) {
                        if (step.skipped()) {
                            metrics.skipped(stored.queue(), RecurringMetrics.Skip.OVERDUE, step.missed());
                        }
                        if (move.tick() != null) {
                            metrics.fired(stored.queue(), fired.now() - move.tick());
                        }
                    }
                    if (move.tick() != null) {
                        ticks.add(new TickDelivery.Tick(move.id(), move.tick(), stored,
                                RecurringStore.member(move.tick(), 1, move.id())));
                    }
                }
                return deliver(delivery.storeAll(ticks));
            }));
        }
        if (!work.expired().isEmpty()) {
            passes.add(delivery.redo(work.expired()));
        }
        if (passes.isEmpty()) {
            long wake = Long.MAX_VALUE;
            if (work.earliestNext() >= 0) {
                wake = work.earliestNext();
            }
            if (work.earliestLease() >= 0) {
                wake = Math.min(wake, work.earliestLease() + 1);
            }
            return Uni.createFrom().item(wake == Long.MAX_VALUE ? maxWaitMillis : wake - work.now());
        }
        // Read again at once: the moved schedules' next fire times decide the sleep, and a full batch has more.
        return join(passes).replaceWith(0L);
    }

    /**
     * Lets the next pass read while {@code stores} (the ticks a pass fired) are still being stored: the schedules are
     * already moved on, so storing overlaps the next passes' reads instead of adding its round trips to each pass. At
     * most {@link #MAX_PASSES_STORING} passes store at once; beyond, a pass waits for its own stores.
     */
    private Uni<Void> deliver(Uni<Void> stores) {
        synchronized (this) {
            if (storing >= MAX_PASSES_STORING) {
                return stores;
            }
            storing++;
        }
        stores.subscribe().with(ignored -> stored(), failure -> stored());
        return Uni.createFrom().voidItem();
    }

    /** A pass's ticks are stored: a catch-up waiting for them gets a pass of its own, which finds nothing due. */
    private void stored() {
        boolean again;
        synchronized (this) {
            storing--;
            again = storing == 0 && catchUps.pending();
        }
        if (again) {
            poll();
        }
    }

    /** The due schedule's step, {@code null} when its definition cannot be read or has no next fire time. */
    private DueTick step(RecurringStore.Due due, long now) {
        try {
            StoredDelivery stored = StoredDelivery.parse(due.definition());
            FireTimes times = schedules.times().of(due.id(), stored);
            return DueTick.of(times, due.next(), now, stored.graceMillis() == null ? defaultGraceMillis
                    : stored.graceMillis());
        } catch (RuntimeException e) {
            LOG.errorf("Recurring schedule %s cannot be fired (%s); it is paused: upsert it again to fix it", due.id(),
                    e.toString());
            return null;
        }
    }

    /** A schedule this instance cannot compute would be due forever: paused, so that no instance loops on it. */
    private Uni<Void> pauseUnreadable(String id) {
        return schedules.store().pause(id, true).replaceWithVoid();
    }

    private void warnSkipped(RecurringStore.Move move, DueTick step) {
        if (step.skipped()) {
            SKIPPED.warnf("Recurring schedule %s: %d tick(s) from %s on were missed by more than the overdue grace period "
                    + "and are skipped", move.id(), step.missed(), Instant.ofEpochMilli(move.next()));
        }
    }

    /** All of {@code unis}, each run at once. */
    static Uni<Void> join(List<Uni<Void>> unis) {
        if (unis.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.join().all(unis).andCollectFailures().replaceWithVoid();
    }

    /** @param idle whether the pass found nothing to do */
    private void passEnded(long sleepMillis, boolean idle) {
        synchronized (this) {
            polling = false;
            if (stopped) {
                return;
            }
            if (idle && storing == 0) {
                // Every tick fired before is stored too.
                catchUps.caughtUp();
            }
            if (!again) {
                long delay = Math.max(1, Math.min(sleepMillis, maxWaitMillis));
                timerId = vertx.setTimer(delay, id -> {
                    synchronized (this) {
                        if (timerId != id) {
                            return;
                        }
                        timerId = -1;
                    }
                    poll();
                });
                return;
            }
        }
        poll();
    }
}
