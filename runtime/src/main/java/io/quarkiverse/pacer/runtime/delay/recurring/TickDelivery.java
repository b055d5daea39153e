package io.quarkiverse.pacer.runtime.delay.recurring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.smallrye.mutiny.Uni;

/**
 * Stores fired ticks in their delay queues: each tick's message under the id {@code <schedule id>@<tick>}, due at the
 * tick, stored only if no message with that id is waiting, in flight or dead-lettered (a tick stored again after its
 * instance died does not disturb a delivery in progress); then the tick's pending entry is cleared. A store that fails
 * leaves the entry to expire; the pending ticks whose lease expired are taken over here (recurring-redo.lua), each at
 * most {@link #MAX_STARTS} times, counted in {@link RecurringMetrics} as takeovers, or as dropped once started that
 * often.
 */
final class TickDelivery {

    private static final Logger LOG = Logger.getLogger(TickDelivery.class);

    /** A fired tick is started at most this many times (its instance stopped, or storing its message failed). */
    static final int MAX_STARTS = 3;

    private final RecurringStore store;
    private final RedisDelayedQueue queue;
    private final long leaseMillis;
    private final RecurringMetrics metrics;

    TickDelivery(RecurringStore store, RedisDelayedQueue queue, long leaseMillis, RecurringMetrics metrics) {
        this.store = store;
        this.queue = queue;
        this.leaseMillis = leaseMillis;
        this.metrics = metrics;
    }

    /** Takes over the expired ticks another instance could not store, and stores them. */
    Uni<Void> redo(List<RecurringStore.Expired> expired) {
        List<String> members = new ArrayList<>(expired.size());
        expired.forEach(e -> members.add(e.member()));
        return store.redo(members, leaseMillis, MAX_STARTS).flatMap(redone -> {
            List<Tick> ticks = new ArrayList<>();
            for (int i = 0; i < redone.size(); i++) {
                RecurringStore.Redone r = redone.get(i);
                String member = members.get(i);
                String id = RecurringStore.id(member);
                long tick = RecurringStore.tick(member);
                switch (r.outcome()) {
                    case TAKEN -> {
                        LOG.warnf("Recurring schedule %s: the tick of %s was fired by an instance that stopped before "
                                + "storing it; this instance stores it", id, Instant.ofEpochMilli(tick));
                        StoredDelivery stored = read(id, tick, r.definition());
                        if (stored != null) {
                            metrics.takenOver(stored.queue());
                        }
                        ticks.add(new Tick(id, tick, stored, r.member()));
                    }
                    case DROPPED -> {
                        LOG.errorf("Recurring schedule %s: the tick of %s could not be stored in its delay queue in %d "
                                + "starts; it is dropped", id, Instant.ofEpochMilli(tick), MAX_STARTS);
                        // The script returns no definition for a dropped tick: the one read with it names the queue.
                        StoredDelivery stored = read(id, null, expired.get(i).definition());
                        if (stored != null) {
                            metrics.skipped(stored.queue(), RecurringMetrics.Skip.DROPPED, 1);
                        }
                    }
                    default -> {
                        // taken by another instance, or its schedule was deleted
                    }
                }
            }
            return storeAll(ticks);
        });
    }

    /**
     * The definition a moved schedule's tick is stored with, {@code null} (logged) when it cannot be read: the tick, if
     * {@code tick} is not {@code null}, is then not delivered.
     */
    static StoredDelivery read(String id, Long tick, String definition) {
        if (definition == null) {
            return null;
        }
        try {
            return StoredDelivery.parse(definition);
        } catch (RuntimeException e) {
            if (tick != null) {
                LOG.errorf("Recurring schedule %s cannot be read (%s); its tick of %s is not delivered", id,
                        e.toString(), Instant.ofEpochMilli(tick));
            } else {
                LOG.errorf("Recurring schedule %s cannot be read (%s)", id, e.toString());
            }
            return null;
        }
    }

    /**
     * A fired tick to store: schedule {@code id}'s tick {@code tick}, pending as {@code member}; {@code stored} is
     * {@code null} when its definition cannot be read (the tick is only cleared, not delivered).
     */
    record Tick(String id, long tick, StoredDelivery stored, String member) {
    }

    /**
     * Stores the fired ticks' messages, all at once, then clears the pending entries of those stored (and of those not
     * to deliver) with one call; a tick whose store failed keeps its entry, to expire and be stored again.
     */
    Uni<Void> storeAll(List<Tick> ticks) {
        if (ticks.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Uni<String>> stores = new ArrayList<>(ticks.size());
        for (Tick tick : ticks) {
            stores.add(tick.stored() == null ? Uni.createFrom().item(tick.member()) : store(tick));
        }
        return Uni.join().all(stores).andFailFast().flatMap(members -> {
            List<String> done = new ArrayList<>(members.size());
            for (String member : members) {
                if (member != null) {
                    done.add(member);
                }
            }
            return done.isEmpty() ? Uni.createFrom().voidItem() : store.done(done).onFailure().recoverWithUni(failure -> {
                LOG.warnf("Recurring schedules: %d stored tick(s) could not be cleared as pending (%s); they are "
                        + "taken over in %d ms, and a message still waiting is not stored twice", done.size(),
                        failure.toString(), leaseMillis);
                return Uni.createFrom().voidItem();
            });
        });
    }

    /** Stores a fired tick's message: emits its pending member, or {@code null} (logged) when the store failed. */
    private Uni<String> store(Tick tick) {
        Instant at = Instant.ofEpochMilli(tick.tick());
        StoredDelivery stored = tick.stored();
        return Uni.createFrom().deferred(() -> queue.scheduleEncodedIfAbsent(stored.queue(), tick.id() + "@" + at,
                stored.payload(), at))
                .replaceWith(tick.member())
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("Recurring schedule %s: the tick of %s could not be stored in delay queue %s (%s); it is "
                            + "tried again in %d ms", tick.id(), at, stored.queue(), failure.toString(), leaseMillis);
                    return null;
                });
    }
}
