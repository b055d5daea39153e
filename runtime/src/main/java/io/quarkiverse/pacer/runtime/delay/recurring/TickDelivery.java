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
 * most {@link #MAX_STARTS} times.
 */
final class TickDelivery {

    private static final Logger LOG = Logger.getLogger(TickDelivery.class);

    /** A fired tick is started at most this many times (its instance stopped, or storing its message failed). */
    static final int MAX_STARTS = 3;

    private final RecurringStore store;
    private final RedisDelayedQueue queue;
    private final long leaseMillis;

    TickDelivery(RecurringStore store, RedisDelayedQueue queue, long leaseMillis) {
        this.store = store;
        this.queue = queue;
        this.leaseMillis = leaseMillis;
    }

    /** Takes over the expired ticks another instance could not store, and stores them. */
    Uni<Void> redo(List<RecurringStore.Expired> expired) {
        List<String> members = new ArrayList<>(expired.size());
        expired.forEach(e -> members.add(e.member()));
        return store.redo(members, leaseMillis, MAX_STARTS).flatMap(redone -> {
            List<Uni<Void>> stores = new ArrayList<>();
            for (int i = 0; i < redone.size(); i++) {
                RecurringStore.Redone r = redone.get(i);
                String member = members.get(i);
                switch (r.outcome()) {
                    case TAKEN -> {
                        LOG.warnf("Recurring schedule %s: the tick of %s was fired by an instance that stopped before "
                                + "storing it; this instance stores it", RecurringStore.id(member),
                                Instant.ofEpochMilli(RecurringStore.tick(member)));
                        stores.add(store(RecurringStore.id(member), RecurringStore.tick(member), r.definition(),
                                r.member()));
                    }
                    case DROPPED -> LOG.errorf("Recurring schedule %s: the tick of %s could not be stored in its delay "
                            + "queue in %d starts; it is dropped", RecurringStore.id(member),
                            Instant.ofEpochMilli(RecurringStore.tick(member)), MAX_STARTS);
                    default -> {
                        // taken by another instance, or its schedule was deleted
                    }
                }
            }
            return RecurringFirer.join(stores);
        });
    }

    /**
     * Stores a fired tick's message, then clears its pending entry; a failure leaves the entry to expire and be
     * stored again.
     */
    Uni<Void> store(String id, long tick, String definition, String member) {
        StoredDelivery stored;
        try {
            stored = StoredDelivery.parse(definition);
        } catch (RuntimeException e) {
            LOG.errorf("Recurring schedule %s cannot be read (%s); its tick of %s is not delivered", id, e.toString(),
                    Instant.ofEpochMilli(tick));
            return store.done(member);
        }
        Instant at = Instant.ofEpochMilli(tick);
        return Uni.createFrom().deferred(() -> queue.scheduleEncodedIfAbsent(stored.queue(), id + "@" + at,
                stored.payload(), at))
                .flatMap(ignored -> store.done(member))
                .onFailure().recoverWithUni(failure -> {
                    LOG.warnf("Recurring schedule %s: the tick of %s could not be stored in delay queue %s (%s); it is "
                            + "tried again in %d ms", id, at, stored.queue(), failure.toString(), leaseMillis);
                    return Uni.createFrom().voidItem();
                });
    }
}
