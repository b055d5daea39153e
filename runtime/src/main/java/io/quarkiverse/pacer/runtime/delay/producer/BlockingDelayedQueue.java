package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import jakarta.inject.Singleton;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.RedisTimeoutException;
import io.quarkiverse.pacer.delay.ScheduledMessage;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * The {@link DelayedQueue} bean: the reactive implementation awaited with a bounded timeout, refusing to block an
 * event loop; scheduling one message waits on a plain future when nothing needs the reactive chain.
 */
@Singleton
public class BlockingDelayedQueue implements DelayedQueue {

    /** Longest a blocking call waits for Redis beyond the producer timeout (its last attempt may take that long). */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final RedisDelayedQueue reactive;
    /** The reactive calls end by themselves (they retry for at most the producer timeout): this is a safety net. */
    private final Duration awaitAtMost;

    BlockingDelayedQueue(RedisDelayedQueue reactive, PacerConfig config) {
        this.reactive = reactive;
        this.awaitAtMost = config.delayed().producerTimeout().plus(TIMEOUT);
    }

    private <T> T await(Uni<T> uni) {
        refuseEventLoop();
        try {
            return uni.await().atMost(awaitAtMost);
        } catch (io.smallrye.mutiny.TimeoutException e) {
            throw timedOut();
        }
    }

    /** The safety net fired: reported as the Redis timeout it is, so callers catch one public type. */
    private RedisTimeoutException timedOut() {
        return new RedisTimeoutException("no answer from Redis within " + awaitAtMost.toMillis() + " ms");
    }

    private static void refuseEventLoop() {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("DelayedQueue blocks and cannot be called on a Vert.x event loop thread ("
                    + Thread.currentThread().getName() + "); use ReactiveDelayedQueue instead");
        }
    }

    /** Stores one message on this thread, without a Mutiny chain when nothing needs one. */
    private boolean store(String queue, String id, Object payload, String mode, Instant dueAt, Duration delay) {
        refuseEventLoop();
        try {
            return reactive.storeBlocking(queue, id, payload, mode, dueAt, delay, awaitAtMost);
        } catch (io.smallrye.mutiny.TimeoutException e) {
            throw timedOut();
        }
    }

    @Override
    public String schedule(String queue, Object payload, Duration delay) {
        String id = reactive.newId(queue);
        store(queue, id, payload, RedisDelayedQueue.NEW, null, delay);
        return id;
    }

    @Override
    public String schedule(String queue, Object payload, Instant dueAt) {
        String id = reactive.newId(queue);
        store(queue, id, payload, RedisDelayedQueue.NEW, Objects.requireNonNull(dueAt, "dueAt"), null);
        return id;
    }

    @Override
    public String scheduleWithId(String queue, String id, Object payload, Instant dueAt) {
        store(queue, id, payload, RedisDelayedQueue.UPSERT, Objects.requireNonNull(dueAt, "dueAt"), null);
        return id;
    }

    @Override
    public String scheduleWithId(String queue, String id, Object payload, Duration delay) {
        store(queue, id, payload, RedisDelayedQueue.UPSERT, null, delay);
        return id;
    }

    @Override
    public List<String> scheduleAll(String queue, List<ScheduledMessage> messages) {
        return await(reactive.scheduleAll(queue, messages));
    }

    @Override
    public boolean scheduleIfAbsent(String queue, String id, Object payload, Instant dueAt) {
        return store(queue, id, payload, RedisDelayedQueue.ABSENT, Objects.requireNonNull(dueAt, "dueAt"), null);
    }

    @Override
    public boolean scheduleIfAbsent(String queue, String id, Object payload, Duration delay) {
        return store(queue, id, payload, RedisDelayedQueue.ABSENT, null, delay);
    }

    @Override
    public boolean cancel(String queue, String id) {
        return await(reactive.cancel(queue, id));
    }

    @Override
    public boolean deliverNow(String queue, String id) {
        return await(reactive.deliverNow(queue, id));
    }

    @Override
    public long size(String queue) {
        return await(reactive.size(queue));
    }

    @Override
    public long deadLetterCount(String queue) {
        return await(reactive.deadLetterCount(queue));
    }

    @Override
    public List<DeadLetter> deadLetters(String queue, int limit) {
        return await(reactive.deadLetters(queue, limit));
    }

    @Override
    public boolean replay(String queue, String id) {
        return await(reactive.replay(queue, id));
    }

    @Override
    public long replayDeadLetters(String queue) {
        return await(reactive.replayDeadLetters(queue));
    }

    @Override
    public boolean purge(String queue, String id) {
        return await(reactive.purge(queue, id));
    }

    @Override
    public long purgeDeadLetters(String queue) {
        return await(reactive.purgeDeadLetters(queue));
    }
}
