package io.quarkiverse.pacer.runtime.delay.recurring;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.delay.RecurringDeliveryState;
import io.quarkiverse.pacer.delay.RecurringSchedules;
import io.quarkiverse.pacer.delay.RedisTimeoutException;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * The {@link RecurringSchedules} bean: the reactive implementation awaited with a bounded timeout, refusing to block an
 * event loop.
 */
@Singleton
public class BlockingRecurringSchedules implements RecurringSchedules {

    /** Longest a call waits for Redis beyond the producer timeout (its last attempt may take that long). */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final RedisRecurringSchedules reactive;
    private final Duration awaitAtMost;

    BlockingRecurringSchedules(RedisRecurringSchedules reactive, PacerConfig config) {
        this.reactive = reactive;
        // list() makes one call per page, each retried for at most the producer timeout: a safety net only.
        this.awaitAtMost = config.delayed().producerTimeout().plus(TIMEOUT);
    }

    private <T> T await(Uni<T> uni) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("RecurringSchedules blocks and cannot be called on a Vert.x event loop "
                    + "thread (" + Thread.currentThread().getName() + "); use ReactiveRecurringSchedules instead");
        }
        try {
            return uni.await().atMost(awaitAtMost);
        } catch (io.smallrye.mutiny.TimeoutException e) {
            throw new RedisTimeoutException("no answer from Redis within " + awaitAtMost.toMillis() + " ms");
        }
    }

    @Override
    public Instant upsert(RecurringDelivery delivery) {
        return await(reactive.upsert(delivery));
    }

    @Override
    public boolean pause(String id) {
        return await(reactive.pause(id));
    }

    @Override
    public boolean resume(String id) {
        return await(reactive.resume(id));
    }

    @Override
    public Optional<String> triggerNow(String id) {
        return Optional.ofNullable(await(reactive.triggerNow(id)));
    }

    @Override
    public Optional<RecurringDeliveryState> get(String id) {
        return Optional.ofNullable(await(reactive.get(id)));
    }

    @Override
    public List<RecurringDeliveryState> list() {
        return await(reactive.list());
    }

    @Override
    public boolean delete(String id) {
        return await(reactive.delete(id));
    }
}
