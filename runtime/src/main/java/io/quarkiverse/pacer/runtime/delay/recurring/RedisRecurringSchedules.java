package io.quarkiverse.pacer.runtime.delay.recurring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.cronutils.model.CronType;

import io.quarkiverse.pacer.delay.ReactiveRecurringSchedules;
import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringDeliveryState;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.scheduler.FireTimes;
import io.quarkus.scheduler.common.runtime.CronParser;
import io.quarkus.scheduler.common.runtime.SchedulerContext;
import io.smallrye.mutiny.Uni;

/**
 * The {@link ReactiveRecurringSchedules} bean: each operation is one script call on the recurring schedules' slot
 * ({@link RecurringStore}), made again while Redis is unavailable for up to the producer timeout, as producer calls
 * are; an upsert reads the Redis clock first, for the first fire time of a new timing.
 */
@Singleton
public class RedisRecurringSchedules implements ReactiveRecurringSchedules {

    private static final Logger LOG = Logger.getLogger(RedisRecurringSchedules.class);

    /** The COUNT hint of one {@code list} step. */
    static final int LIST_PAGE = 200;

    private final RecurringStore store;
    private final RecurringTimes times;
    private final RedisDelayedQueue queue;

    RedisRecurringSchedules(PacerRedis redis, PacerConfig config, RedisDelayedQueue queue,
            Instance<SchedulerContext> scheduler) {
        this.store = new RecurringStore(redis, config.keyPrefix());
        this.times = new RecurringTimes(new CronParser(
                scheduler.isResolvable() ? scheduler.get().getCronType() : CronType.QUARTZ));
        this.queue = queue;
    }

    RecurringStore store() {
        return store;
    }

    RecurringTimes times() {
        return times;
    }

    @Override
    public Uni<Instant> upsert(RecurringDelivery delivery) {
        Objects.requireNonNull(delivery, "delivery");
        String id = delivery.id();
        FireTimes fireTimes = delivery.cron() != null ? times.cron(id, delivery.cron(), delivery.zone())
                : RecurringTimes.every(delivery.every().toMillis());
        // A cron expression that never fires again (a past year) is refused now, not when its first tick is computed.
        first(delivery, fireTimes, System.currentTimeMillis());
        PayloadCodec.Encoded payload = queue.encode(delivery.queue(), delivery.payload());
        String spec = fireTimes.spec();
        String definition = StoredDelivery.of(spec, delivery, payload).text();
        return queue.retry().call(() -> store.now()
                .flatMap(now -> store.upsert(id, spec, definition, first(delivery, fireTimes, now))))
                .map(upserted -> Instant.ofEpochMilli(upserted.next()));
    }

    /** A new timing's first tick: one period from now, or the cron expression's first tick from now. */
    private static long first(RecurringDelivery delivery, FireTimes fireTimes, long now) {
        try {
            return fireTimes.first(now, delivery.every() == null ? 0 : delivery.every().toMillis());
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("The cron expression \"" + delivery.cron() + "\" of recurring schedule "
                    + delivery.id() + " has no fire time after " + Instant.ofEpochMilli(now), e);
        }
    }

    @Override
    public Uni<Boolean> pause(String id) {
        checkId(id);
        return queue.retry().call(() -> store.pause(id, true));
    }

    @Override
    public Uni<Boolean> resume(String id) {
        checkId(id);
        return queue.retry().call(() -> store.pause(id, false));
    }

    @Override
    public Uni<String> triggerNow(String id) {
        checkId(id);
        return queue.retry().call(() -> store.get(id)).flatMap(found -> {
            if (found.stored() == null) {
                return Uni.createFrom().nullItem();
            }
            StoredDelivery stored = StoredDelivery.parse(found.stored().definition());
            String messageId = id + "@now-" + Instant.ofEpochMilli(found.now());
            return queue.scheduleEncodedIfAbsent(stored.queue(), messageId, stored.payload(),
                    Instant.ofEpochMilli(found.now())).replaceWith(messageId);
        });
    }

    @Override
    public Uni<RecurringDeliveryState> get(String id) {
        checkId(id);
        return queue.retry().call(() -> store.get(id))
                .map(found -> found.stored() == null ? null : state(found.stored()));
    }

    @Override
    public Uni<List<RecurringDeliveryState>> list() {
        return page("0", new TreeMap<>());
    }

    /** One HSCAN step after another, until the cursor comes back to 0; a schedule seen twice is kept once. */
    private Uni<List<RecurringDeliveryState>> page(String cursor, Map<String, RecurringDeliveryState> found) {
        return queue.retry().call(() -> store.list(cursor, LIST_PAGE)).flatMap(page -> {
            for (RecurringStore.Stored stored : page.schedules()) {
                try {
                    found.put(stored.id(), state(stored));
                } catch (RuntimeException e) {
                    LOG.warnf("Recurring schedule %s cannot be read (%s); it is left out of the list", stored.id(), e);
                }
            }
            if ("0".equals(page.cursor())) {
                return Uni.createFrom().item(List.copyOf(new ArrayList<>(found.values())));
            }
            return page(page.cursor(), found);
        });
    }

    @Override
    public Uni<Boolean> delete(String id) {
        checkId(id);
        return queue.retry().call(() -> store.delete(id));
    }

    /**
     * After the test kit put its clock back: a schedule that is not paused and whose next fire time is further ahead
     * than one tick from Redis time now (it was computed on the moved clock) moves back to that tick, with the same
     * compare-and-set as firing, with no tick; one changed meanwhile is left as it is.
     */
    Uni<Void> startOver() {
        return store.now().flatMap(now -> startOver("0", now));
    }

    private Uni<Void> startOver(String cursor, long now) {
        return store.list(cursor, LIST_PAGE).flatMap(page -> {
            List<RecurringStore.Move> moves = new ArrayList<>();
            for (RecurringStore.Stored stored : page.schedules()) {
                if (stored.paused()) {
                    continue;
                }
                StoredDelivery delivery;
                long fresh;
                try {
                    delivery = StoredDelivery.parse(stored.definition());
                    fresh = times.of(stored.id(), delivery).after(now);
                } catch (RuntimeException e) {
                    continue; // the firer pauses a schedule it cannot compute
                }
                if (stored.next() > fresh) {
                    moves.add(new RecurringStore.Move(stored.id(), stored.next(), delivery.spec(), fresh, null));
                }
            }
            Uni<Void> moved = moves.isEmpty() ? Uni.createFrom().voidItem()
                    : store.fire(moves, 0).replaceWithVoid();
            return "0".equals(page.cursor()) ? moved : moved.flatMap(ignored -> startOver(page.cursor(), now));
        });
    }

    private static RecurringDeliveryState state(RecurringStore.Stored stored) {
        return new RecurringDeliveryState(StoredDelivery.parse(stored.definition()).toDelivery(stored.id()),
                stored.paused(), Instant.ofEpochMilli(stored.next()));
    }

    private static void checkId(String id) {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("A recurring schedule id must not be blank");
        }
    }
}
