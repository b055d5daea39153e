package io.quarkiverse.pacer.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.delay.inspection.QueueDepth;
import io.quarkiverse.pacer.runtime.delay.inspection.WaitingMessage;
import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkus.arc.Unremovable;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Delay queues in tests: list the messages the code under test scheduled, deliver them now and wait for the consumers,
 * or purge them.
 *
 * <pre>
 * {@code
 * &#64;Inject
 * PacerTestQueues queues;
 *
 * @Test
 * void remindsTheCustomer() {
 *     orders.place(42);
 *     assertThat(queues.waiting("reminders")).extracting(QueuedMessage::payload).containsExactly("{\"order\":42}");
 *     queues.deliverAllNow("reminders"); // returns once the consumers are idle
 *     assertThat(mailbox.sent()).hasSize(1);
 * }
 * }
 * </pre>
 *
 * Every method blocks: call it from the test's thread, never from an event loop.
 */
@Singleton
@Unremovable
public class PacerTestQueues {

    /** How long {@link #deliverAllNow(String)} and {@link #awaitIdle()} wait by default. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(10);

    /** Most messages {@link #waiting(String)} lists (per shard, before they are merged). */
    public static final int MAX_LISTED = 1000;

    private static final int MAX_PAYLOAD_CHARS = 1 << 20;
    private static final long IDLE_CHECK_MILLIS = 10;

    private final PacerRedis redis;
    private final RedisDelayedQueue queue;
    private final DelayedConsumers consumers;
    private final String keyPrefix;
    private final KeyScan scan;

    /** Created by CDI; inject the bean instead. */
    @Inject
    public PacerTestQueues(PacerRedis redis, RedisDelayedQueue queue, DelayedConsumers consumers, PacerConfig config) {
        this.redis = redis;
        this.queue = queue;
        this.consumers = consumers;
        this.keyPrefix = config.keyPrefix();
        this.scan = new KeyScan(redis);
    }

    /**
     * The messages of {@code queue} waiting for their due time or for a consumer, due first (at most
     * {@value #MAX_LISTED}); messages a consumer is handling right now and dead letters are not listed.
     *
     * @param queue the queue name
     * @return the waiting messages, sorted by due time, then id
     */
    public List<QueuedMessage> waiting(String queue) {
        List<WaitingMessage> waiting = this.queue.waiting(queue, MAX_LISTED, MAX_PAYLOAD_CHARS).await()
                .atMost(KitScripts.TIMEOUT);
        List<QueuedMessage> listed = new ArrayList<>(waiting.size());
        for (WaitingMessage message : waiting) {
            listed.add(new QueuedMessage(message.id(), message.queue(), message.dueAt(), message.attempts() + 1,
                    message.payload()));
        }
        return listed;
    }

    /**
     * Makes every waiting message of {@code queue} due now, as {@code DelayedQueue.deliverNow} does for one, then
     * waits until the consumers are idle ({@link #awaitIdle()}): when it returns, the messages were handled (or, if
     * they failed, wait for their retry or are dead letters).
     *
     * @param queue the queue name
     * @return the number of messages that were due later and were made due now
     * @throws AssertionError if the consumers are not idle within {@link #DEFAULT_IDLE_TIMEOUT}
     */
    public long deliverAllNow(String queue) {
        return deliverAllNow(queue, DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * Makes every waiting message of {@code queue} due now and waits until the consumers are idle, like
     * {@link #deliverAllNow(String)}, at most {@code timeout}.
     *
     * @param queue the queue name
     * @param timeout how long to wait for the consumers at most
     * @return the number of messages that were due later and were made due now
     * @throws AssertionError if the consumers are not idle within {@code timeout}
     */
    public long deliverAllNow(String queue, Duration timeout) {
        long madeDue = 0;
        for (DelayedKeys k : this.queue.shards(queue)) {
            long visited;
            do {
                Response r = redis.eval(KitScripts.DELIVER_ALL, k.all,
                        List.of(Integer.toString(KitScripts.DELIVER_ALL_BATCH), k.wakeChannel))
                        .await().atMost(KitScripts.TIMEOUT);
                madeDue += r.get(0).toLong();
                visited = r.get(1).toLong();
            } while (visited >= KitScripts.DELIVER_ALL_BATCH);
        }
        awaitIdle(timeout, queue);
        return madeDue;
    }

    /**
     * Waits until the consumers are idle: no message of any queue this application consumes is due or being handled.
     * Messages due later (a retry's backoff included) do not count: move the {@link PacerTestClock} or call
     * {@link #deliverAllNow(String)} for them.
     *
     * @throws AssertionError if the consumers are not idle within {@link #DEFAULT_IDLE_TIMEOUT}
     */
    public void awaitIdle() {
        awaitIdle(DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * Waits until the consumers are idle, like {@link #awaitIdle()}, at most {@code timeout}.
     *
     * @param timeout how long to wait at most
     * @throws AssertionError if the consumers are not idle within {@code timeout}
     */
    public void awaitIdle(Duration timeout) {
        awaitIdle(timeout, null);
    }

    private void awaitIdle(Duration timeout, String alsoQueue) {
        Set<String> queues = new LinkedHashSet<>(consumers.consumedQueues());
        if (alsoQueue != null) {
            queues.add(alsoQueue);
        }
        consumers.pollNow();
        long deadline = System.nanoTime() + timeout.toNanos();
        int idlePasses = 0;
        while (true) {
            List<QueueDepth> busy = new ArrayList<>();
            for (String name : queues) {
                QueueDepth depth = queue.depth(name).await().atMost(KitScripts.TIMEOUT);
                if (depth.overdue() > 0 || depth.inFlight() > 0) {
                    busy.add(depth);
                }
            }
            // Two idle passes in a row: a handler of one queue may schedule into another just before it finishes.
            idlePasses = busy.isEmpty() ? idlePasses + 1 : 0;
            if (idlePasses == 2) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Pacer's delay-queue consumers are not idle after " + timeout + ": " + busy
                        + " (is the queue consumed by a @Delayed method of this application?)");
            }
            try {
                Thread.sleep(IDLE_CHECK_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for Pacer's consumers", e);
            }
        }
    }

    /**
     * Deletes every message of {@code queue}: waiting, in flight and dead letters. A consumer handling one of them
     * finishes, and its acknowledgement then finds nothing to remove.
     *
     * @param queue the queue name
     * @return the number of messages deleted
     */
    public long purge(String queue) {
        long purged = this.queue.depth(queue).await().atMost(KitScripts.TIMEOUT).total();
        for (DelayedKeys k : this.queue.shards(queue)) {
            Request delete = Request.cmd(Command.DEL);
            k.all.forEach(delete::arg);
            redis.send(delete).await().atMost(KitScripts.TIMEOUT);
        }
        return purged;
    }

    /**
     * Deletes every message of every delay queue under this application's key prefix, consumed here or not.
     *
     * @return the number of Redis keys deleted
     */
    public long purgeAll() {
        String start = keyPrefix + ":d:{";
        return scan.delete(scan.find(KeyScan.literal(start) + "*", key -> key.startsWith(start)));
    }
}
