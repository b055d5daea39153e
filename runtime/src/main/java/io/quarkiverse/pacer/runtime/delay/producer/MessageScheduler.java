package io.quarkiverse.pacer.runtime.delay.producer;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedMetrics;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkiverse.pacer.runtime.delay.QueueShards;
import io.quarkiverse.pacer.runtime.delay.StoredPayload;
import io.quarkiverse.pacer.runtime.delay.integration.DelayedTransactions;
import io.quarkiverse.pacer.runtime.redis.EncodedArgs;
import io.quarkiverse.pacer.runtime.tracing.DelayedTracing;
import io.quarkiverse.pacer.runtime.tracing.ProducerTrace;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Response;

/**
 * Scheduling one message by id: new, upsert or if-absent, inside a JTA transaction at its commit; for blocking callers
 * also without a Mutiny chain ({@link #storeBlocking}).
 */
final class MessageScheduler {

    /** What a failed schedule's message tells the caller to do. */
    private static final String AGAIN = "schedule it again with the same id: scheduling by id is an upsert";

    private final QueueShards shards;
    private final DurableWrites writes;
    private final ProducerRetry retry;
    private final DelayedTracing tracing;
    private final DelayedMetrics metrics;
    private final UnconsumedQueues unconsumed;
    private final DelayedTransactions transactions;
    private final RandomIds ids = new RandomIds();

    MessageScheduler(QueueShards shards, DurableWrites writes, ProducerRetry retry, DelayedTracing tracing,
            DelayedMetrics metrics, UnconsumedQueues unconsumed, DelayedTransactions transactions) {
        this.shards = shards;
        this.writes = writes;
        this.retry = retry;
        this.tracing = tracing;
        this.metrics = metrics;
        this.unconsumed = unconsumed;
        this.transactions = transactions;
    }

    /**
     * A new random id. With {@code durability=replicas}, one whose shard's master is not known to refuse durable writes
     * (it has no connected replica), when some shard's master is not: a message without an id may go to any shard.
     */
    String newId(String queue) {
        String id = ids.next();
        if (!writes.waitsForReplicas(queue)) {
            return id;
        }
        DelayedKeys[] all = shards.of(queue);
        for (int i = 0; i < 4 * all.length && all.length > 1
                && writes.refusedAtOnce(all[DelayedKeys.shardOf(id, all.length)]); i++) {
            id = ids.next();
        }
        return id;
    }

    /** Stores an encoded payload; {@code true} when stored, {@code false} when {@code mode} is absent and it exists. */
    Uni<Boolean> store(String queue, String id, PayloadCodec.Encoded encoded, String mode, Instant dueAt,
            Duration delay) {
        // The trace context at the call, also when a transaction stores the message at its commit.
        return store(queue, id, encoded, mode, dueAt, delay, tracing.send(queue, id, 1));
    }

    private Uni<Boolean> store(String queue, String id, PayloadCodec.Encoded encoded, String mode, Instant dueAt,
            Duration delay, ProducerTrace trace) {
        return store(queue, id, encoded, mode, dueAt, delay, trace, false);
    }

    /** {@code afterLostAttempt}: a first attempt, made on a plain future, failed because Redis was unavailable. */
    private Uni<Boolean> store(String queue, String id, PayloadCodec.Encoded encoded, String mode, Instant dueAt,
            Duration delay, ProducerTrace trace, boolean afterLostAttempt) {
        DelayedKeys k = shards.of(queue, id);
        EncodedArgs args = args(k, id, encoded, mode, dueAt, delay, trace);
        Supplier<Uni<Response>> written = () -> writes.write(DelayedScripts.SCHEDULE, k, args,
                new ScheduleBatchPart(k, args), "message " + id + " of queue " + queue, AGAIN);
        Supplier<Uni<Boolean>> operation = () -> written.get().map(r -> stored(queue, r));
        // Inside a JTA transaction: stored after commit; the caller already knows the id.
        Supplier<Uni<Boolean>> call = () -> transactions.run("Scheduling message " + id + " on delay queue " + queue,
                operation, Boolean.TRUE);
        return trace.ending(afterLostAttempt ? retry.callAgain(call) : retry.call(call));
    }

    /**
     * {@link #store} for a caller that blocks (never an event-loop thread). Outside a transaction, the script call (and
     * with {@code durability=replicas} the {@code WAIT} covering it) is waited for on a plain future, completed on
     * Pacer's connection thread, and a traced call's span ends there too: a chain of Mutiny operators would capture
     * and restore the caller's context at every step, about a third of the CPU a {@code schedule} costs the JVM (see
     * the Performance page). Inside a transaction, and when Redis is unavailable, the call takes {@link #store}'s path,
     * which rides out an outage for the producer timeout (a schedule is idempotent: its id is fixed before the first
     * attempt).
     */
    boolean storeBlocking(String queue, String id, PayloadCodec.Encoded encoded, String mode, Instant dueAt,
            Duration delay, Duration awaitAtMost) {
        ProducerTrace trace = tracing.send(queue, id, 1);
        if (!transactions.runsNow()) {
            return store(queue, id, encoded, mode, dueAt, delay, trace).await().atMost(awaitAtMost);
        }
        DelayedKeys k = shards.of(queue, id);
        EncodedArgs args = args(k, id, encoded, mode, dueAt, delay, trace);
        Response response;
        try {
            CompletableFuture<Response> written = writes.waitsForReplicas(queue)
                    ? writes.writeDurableFuture(DelayedScripts.SCHEDULE, k, args, new ScheduleBatchPart(k, args),
                            "message " + id + " of queue " + queue, AGAIN)
                    : writes.writeFuture(DelayedScripts.SCHEDULE, k.all, args, new ScheduleBatchPart(k, args));
            response = written.get(awaitAtMost.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            trace.end(e);
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        } catch (TimeoutException e) {
            io.smallrye.mutiny.TimeoutException timedOut = new io.smallrye.mutiny.TimeoutException();
            trace.end(timedOut);
            throw timedOut;
        } catch (ExecutionException e) {
            if (retry.retries() && ProducerRetry.isOutage(e.getCause())) {
                // The span stays open over the retries and ends with their outcome.
                return store(queue, id, encoded, mode, dueAt, delay, trace, true).await().atMost(awaitAtMost);
            }
            trace.end(e.getCause());
            // Thrown as the awaited Uni would throw it.
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new CompletionException(e.getCause());
        }
        trace.end(null);
        return stored(queue, response);
    }

    /** The ARGV of delayed-schedule.lua, encoded on the caller's thread, once for a lone call and a batch alike. */
    private static EncodedArgs args(DelayedKeys k, String id, PayloadCodec.Encoded encoded, String mode,
            Instant dueAt, Duration delay, ProducerTrace trace) {
        return EncodedArgs.of(id, StoredPayload.value(encoded, trace.context()),
                StoredPayload.encoding(encoded, trace.context()), mode,
                dueAt == null ? "" : Long.toString(dueAt.toEpochMilli()),
                dueAt == null ? Long.toString(delay.toMillis()) : "0",
                k.wakeChannel);
    }

    private boolean stored(String queue, Response response) {
        boolean stored = response.get(0).toInteger() == 1;
        if (stored) {
            metrics.scheduled(queue);
            unconsumed.scheduledOn(queue);
        }
        return stored;
    }
}
