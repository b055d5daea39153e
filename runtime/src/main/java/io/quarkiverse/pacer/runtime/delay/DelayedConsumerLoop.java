package io.quarkiverse.pacer.runtime.delay;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.invoke.Invoker;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JavaType;

import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Response;

/**
 * Consumes one delay queue in this instance: claims due messages in batches, runs the {@code @Delayed} method for
 * each with at most {@code concurrency} running at once, acknowledges or retries them, and renews leases of the
 * messages it holds.
 * <p>
 * All mutable state is confined to one Vert.x event-loop context; Redis replies and handler completions hop back to
 * it. The loop claims when it has room and something may be due: after a full claim, at the earliest due time the
 * last claim reported (a Vert.x timer), on a producer's wake-up and on the scheduler's safety poll.
 */
final class DelayedConsumerLoop {

    private static final Logger LOG = Logger.getLogger(DelayedConsumerLoop.class);

    /** Most expired leases one claim call reclaims. */
    static final int RECLAIM_LIMIT = 100;
    private static final String RECLAIM_ARGUMENT = Integer.toString(RECLAIM_LIMIT);
    /** Retries never wait longer than this. */
    static final long BACKOFF_CAP_MILLIS = 3_600_000L;
    private static final int MAX_REASON_LENGTH = 1000;
    /** First delay before repeating a Redis call that failed; doubles up to {@link #RETRY_CAP_MILLIS}. */
    static final long RETRY_MILLIS = 20;
    static final long RETRY_CAP_MILLIS = 1000;
    /** Attempts at sending an ack or nack before leaving the message to lease expiry. */
    static final int MAX_SEND_ATTEMPTS = 8;

    /** Thrown into a handler completion when shutdown caught the message before its handler started. */
    private static final RuntimeException NOT_STARTED = new RuntimeException("not started", null, false, false) {
    };

    /** A claimed message this instance holds, waiting or running. */
    private static final class Claimed {
        final String id;
        final String token;
        final String payload;
        final String encoding;
        final int attempt;
        final int redeliveries;
        final long dueMillis;

        Claimed(String id, String token, String payload, String encoding, int attempt, int redeliveries, long dueMillis) {
            this.id = id;
            this.token = token;
            this.payload = payload;
            this.encoding = encoding;
            this.attempt = attempt;
            this.redeliveries = redeliveries;
            this.dueMillis = dueMillis;
        }
    }

    private final DelayedConsumerDefinition definition;
    private final Invoker<Object, Object> invoker;
    private final PacerRedis redis;
    private final DelayedKeys keys;
    private final PayloadCodec codec;
    private final JavaType payloadType;
    private final Vertx vertx;
    private final Context context;
    private final Permits permits;
    private final int maxAttempts;
    private final long backoffMillis;
    private final long leaseMillis;
    private final int batchSize;
    /** Messages held beyond the running ones, so a handler finishing finds the next one without a round trip. */
    private final int window;
    private final String noncePrefix;
    private final String leaseArgument;
    private final DelayedMetrics metrics;

    // Confined to the context.
    private final ArrayDeque<Claimed> waiting = new ArrayDeque<>();
    private final Map<String, Claimed> held = new LinkedHashMap<>();
    private long nonceSequence;
    private int running;
    private int redisOperations;
    private boolean claiming;
    private boolean claimAgain;
    private long timerId = -1;
    private long timerAt = Long.MAX_VALUE;
    private long renewTimerId = -1;
    private long clockOffsetMillis;
    private final List<String> acks = new ArrayList<>();
    private boolean ackFlushScheduled;
    private boolean ackInFlight;
    private int renewCalls;
    private int claimFailures;
    private int ackFailures;
    private CompletableFuture<Void> stopped;
    private volatile boolean stopping;

    // Statistics, readable from any thread.
    final AtomicLong claims = new AtomicLong();
    final AtomicLong largestClaim = new AtomicLong();
    final AtomicLong claimed = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong retried = new AtomicLong();
    final AtomicLong deadLettered = new AtomicLong();
    final AtomicLong throttled = new AtomicLong();
    final AtomicLong reclaimed = new AtomicLong();
    final AtomicLong latenessMillisMax = new AtomicLong();

    /**
     * The handler slots of one queue in this instance, shared by the loops of its shards (all on one context, so
     * plain fields suffice).
     */
    static final class Permits {
        final int concurrency;
        final List<DelayedConsumerLoop> loops = new ArrayList<>();
        int running;

        Permits(int concurrency) {
            this.concurrency = concurrency;
        }
    }

    DelayedConsumerLoop(DelayedConsumerDefinition definition, Invoker<Object, Object> invoker, PacerRedis redis,
            DelayedKeys keys, PayloadCodec codec, Vertx vertx, Context context, Permits permits, int maxAttempts,
            long backoffMillis, long leaseMillis, int batchSize, String instanceId, DelayedMetrics metrics) {
        this.metrics = metrics;
        this.permits = permits;
        permits.loops.add(this);
        int concurrency = permits.concurrency;
        this.definition = definition;
        this.invoker = invoker;
        this.redis = redis;
        this.keys = keys;
        this.codec = codec;
        this.payloadType = definition.getPayloadKind() == PayloadKind.JSON
                ? codec.mapper().getTypeFactory().constructFromCanonical(definition.getPayloadType())
                : null;
        this.vertx = vertx;
        this.context = context;
        this.maxAttempts = maxAttempts;
        this.backoffMillis = backoffMillis;
        this.leaseMillis = leaseMillis;
        this.batchSize = batchSize;
        this.window = concurrency + Math.min(batchSize, Math.max(concurrency, 8));
        this.noncePrefix = instanceId + ":" + keys.shard + ":";
        this.leaseArgument = Long.toString(leaseMillis);
    }

    String queue() {
        return keys.queue;
    }

    DelayedConsumerStats stats() {
        return new DelayedConsumerStats(keys.queue, claims.get(), largestClaim.get(), claimed.get(), delivered.get(),
                failed.get(), retried.get(), deadLettered.get(), reclaimed.get(), latenessMillisMax.get(), throttled.get());
    }

    void start() {
        onContext(() -> {
            long period = Math.max(50, leaseMillis / 3);
            renewTimerId = vertx.setPeriodic(period, id -> renewLeases());
            claim();
        });
    }

    /** Claims now if there is room (the safety poll, a wake-up that is already due). */
    void poll() {
        onContext(this::claim);
    }

    /** A producer announced a message due at {@code dueMillis} (Redis time). */
    void wakeAt(long dueMillis) {
        onContext(() -> armAt(dueMillis));
    }

    private void onContext(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }

    private void armAt(long redisMillis) {
        long delay = redisMillis - (System.currentTimeMillis() + clockOffsetMillis);
        if (delay <= 0) {
            claim();
        } else {
            armTimer(delay + 1); // a millisecond late rather than early: Redis compares whole milliseconds
        }
    }

    private void armTimer(long delayMillis) {
        if (stopping) {
            return;
        }
        long at = System.currentTimeMillis() + delayMillis;
        if (timerId != -1) {
            if (timerAt <= at) {
                return;
            }
            vertx.cancelTimer(timerId);
        }
        timerAt = at;
        timerId = vertx.setTimer(Math.max(1, delayMillis), id -> {
            if (timerId == id) {
                timerId = -1;
                timerAt = Long.MAX_VALUE;
                claim();
            }
        });
    }

    private void claim() {
        if (stopping) {
            return;
        }
        if (claiming) {
            claimAgain = true;
            return;
        }
        int room = window - held.size();
        int wanted = Math.min(batchSize, window);
        if (room < Math.max(1, wanted / 2)) {
            // Busy: claim again when handlers finish.
            claimAgain = true;
            return;
        }
        int max = Math.min(batchSize, room);
        claiming = true;
        claimAgain = false;
        String nonce = noncePrefix + (++nonceSequence);
        List<String> args = List.of(keys.messagePrefix, Integer.toString(max), leaseArgument, RECLAIM_ARGUMENT, nonce);
        redis.eval(DelayedScripts.CLAIM, keys.dueInflight, args).subscribe().with(
                response -> onContext(() -> claimed(response, max)),
                failure -> onContext(() -> claimFailed(failure)));
    }

    private void claimFailed(Throwable failure) {
        claiming = false;
        if (claimFailures++ == 0) {
            LOG.warnf("Claiming messages of delay queue %s failed, retrying: %s", keys.queue, failure.toString());
        } else {
            LOG.debugf("Claiming messages of delay queue %s failed again: %s", keys.queue, failure.toString());
        }
        if (stopping) {
            checkStopped();
            return;
        }
        // Transient failures (a busy connection pool, a failover) retry soon; the safety poll covers the rest.
        armTimer(Math.min(RETRY_CAP_MILLIS, RETRY_MILLIS << Math.min(claimFailures - 1, 6)));
    }

    private void claimed(Response response, int max) {
        claiming = false;
        claimFailures = 0;
        long now = response.get(0).toLong();
        clockOffsetMillis = now - System.currentTimeMillis();
        long nextDue = response.get(1).toLong();
        int reclaimedNow = response.get(2).toInteger();
        int count = (response.size() - 3) / 7;
        claims.incrementAndGet();
        largestClaim.accumulateAndGet(count, Math::max);
        claimed.addAndGet(count);
        reclaimed.addAndGet(reclaimedNow);
        for (int i = 3; i + 6 < response.size(); i += 7) {
            Claimed message = new Claimed(response.get(i).toString(), response.get(i + 1).toString(),
                    response.get(i + 2).toString(), response.get(i + 3).toString(), response.get(i + 4).toInteger(),
                    response.get(i + 5).toInteger(), response.get(i + 6).toLong());
            long lateness = Math.max(0, now - message.dueMillis);
            latenessMillisMax.accumulateAndGet(lateness, Math::max);
            metrics.lateness(keys.queue, lateness);
            if (stopping) {
                nack(message, "release", "shutdown");
            } else {
                held.put(message.token, message);
                waiting.add(message);
            }
        }
        if (stopping) {
            checkStopped();
            return;
        }
        startWaiting();
        if (count >= max || reclaimedNow >= RECLAIM_LIMIT) {
            claimAgain = true; // more may be due right now
        } else if (nextDue >= 0) {
            armAt(nextDue);
        }
        if (claimAgain) {
            claim();
        }
    }

    private void startWaiting() {
        while (permits.running < permits.concurrency && !waiting.isEmpty()) {
            Claimed message = waiting.poll();
            Object argument;
            try {
                argument = argument(message);
            } catch (Exception e) {
                // A payload that cannot be decoded will never be: dead-letter it without burning attempts.
                held.remove(message.token);
                LOG.warnf("Message %s of delay queue %s has a payload %s cannot decode; dead-lettering it: %s",
                        message.id, keys.queue, definition.describe(), e.toString());
                nack(message, "dead", "Undecodable payload: " + e);
                continue;
            }
            running++;
            permits.running++;
            invoke(message, argument);
        }
    }

    private Object argument(Claimed message) throws Exception {
        Object payload = codec.decode(message.payload, message.encoding, definition.getPayloadKind(), payloadType);
        if (definition.isMessageParameter()) {
            return new DelayedMessage<>(message.id, keys.queue, payload, Instant.ofEpochMilli(message.dueMillis),
                    message.attempt, message.redeliveries);
        }
        return payload;
    }

    private void invoke(Claimed message, Object argument) {
        Context handlerContext = VertxContext.createNewDuplicatedContext(context);
        Object[] arguments = { argument };
        if (definition.getReturnKind() == ReturnKind.VOID) {
            handlerContext.executeBlocking(() -> {
                if (stopping) {
                    throw NOT_STARTED;
                }
                ManagedContext requestContext = Arc.container().requestContext();
                requestContext.activate();
                try {
                    invoker.invoke(null, arguments);
                } finally {
                    requestContext.terminate();
                }
                return null;
            }, false).onComplete(result -> onContext(() -> finished(message, result.cause())));
            return;
        }
        handlerContext.runOnContext(v -> {
            Object result;
            try {
                result = invoker.invoke(null, arguments);
            } catch (Throwable t) {
                onContext(() -> finished(message, t));
                return;
            }
            if (result instanceof Uni<?> uni) {
                uni.subscribe().with(item -> onContext(() -> finished(message, null)),
                        failure -> onContext(() -> finished(message, failure)));
            } else if (result instanceof CompletionStage<?> stage) {
                stage.whenComplete((item, failure) -> onContext(() -> finished(message, failure)));
            } else {
                onContext(() -> finished(message, new IllegalStateException(definition.describe() + " returned null")));
            }
        });
    }

    private void finished(Claimed message, Throwable failure) {
        running--;
        permits.running--;
        held.remove(message.token);
        if (failure == null) {
            delivered.incrementAndGet();
            ack(message);
        } else if (failure == NOT_STARTED) {
            nack(message, "release", "shutdown");
        } else if (ThrottledRetry.delayMillis(failure) >= 0) {
            // Rate-limited, not failed: due again at the retry-after, with no attempt counted.
            redisOperations++;
            sendNack(message, DelayedScripts.THROTTLED, List.of(keys.messagePrefix, message.id, message.token,
                    Long.toString(ThrottledRetry.delayMillis(failure))), "throttled", 1);
        } else {
            failed.incrementAndGet();
            LOG.debugf(failure, "%s failed for message %s (attempt %d)", definition.describe(), message.id,
                    message.attempt);
            nack(message, "retry", reason(failure));
        }
        if (stopping) {
            checkStopped();
            return;
        }
        resume();
        // The freed slot may serve another shard's waiting messages.
        for (DelayedConsumerLoop other : permits.loops) {
            if (other != this) {
                other.resume();
            }
        }
    }

    private void resume() {
        if (stopping) {
            return;
        }
        startWaiting();
        if (claimAgain) {
            claim();
        }
    }

    private static String reason(Throwable failure) {
        Throwable cause = failure;
        if (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String text = cause.getClass().getName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        return text.length() > MAX_REASON_LENGTH ? text.substring(0, MAX_REASON_LENGTH) : text;
    }

    private void ack(Claimed message) {
        acks.add(message.id);
        acks.add(message.token);
        if (!ackFlushScheduled && !ackInFlight) {
            // Acks finished in the same turn of the event loop travel together.
            ackFlushScheduled = true;
            context.runOnContext(v -> flushAcks());
        }
    }

    /** Sends the pending acks, one call at a time: acks that finish meanwhile go in the next call. */
    private void flushAcks() {
        ackFlushScheduled = false;
        if (acks.isEmpty() || ackInFlight) {
            checkStopped();
            return;
        }
        int end = Math.min(acks.size(), DelayedScripts.MAX_PAIRS_PER_CALL * 2);
        List<String> args = new ArrayList<>(end + 1);
        args.add(keys.messagePrefix);
        args.addAll(acks.subList(0, end));
        acks.subList(0, end).clear();
        ackInFlight = true;
        redis.eval(DelayedScripts.ACK, keys.inflightOnly, args).subscribe().with(
                acked -> onContext(() -> {
                    ackFailures = 0;
                    ackInFlight = false;
                    flushAcks();
                }),
                failure -> onContext(() -> ackFailed(args, failure)));
    }

    private void ackFailed(List<String> args, Throwable failure) {
        ackInFlight = false;
        if (++ackFailures >= MAX_SEND_ATTEMPTS) {
            ackFailures = 0;
            LOG.warnf("Acknowledging %d messages of delay queue %s failed, they will be redelivered when their leases"
                    + " expire: %s", (args.size() - 1) / 2, keys.queue, failure.toString());
            flushAcks();
            return;
        }
        // Put the pairs back in front and try again shortly: a lost ack means a duplicate delivery.
        acks.addAll(0, args.subList(1, args.size()));
        ackFlushScheduled = true;
        vertx.setTimer(Math.min(RETRY_CAP_MILLIS, RETRY_MILLIS << ackFailures), id -> onContext(this::flushAcks));
    }

    /** Extends the leases of every message held, in calls of bounded size; skipped while the last renewal runs. */
    private void renewLeases() {
        if (held.isEmpty() || renewCalls > 0) {
            return;
        }
        List<String> pairs = new ArrayList<>(held.size() * 2);
        for (Claimed message : held.values()) {
            pairs.add(message.id);
            pairs.add(message.token);
        }
        int chunk = DelayedScripts.MAX_PAIRS_PER_CALL * 2;
        for (int from = 0; from < pairs.size(); from += chunk) {
            List<String> args = new ArrayList<>(2 + Math.min(chunk, pairs.size() - from));
            args.add(keys.messagePrefix);
            args.add(Long.toString(leaseMillis));
            args.addAll(pairs.subList(from, Math.min(pairs.size(), from + chunk)));
            renewCalls++;
            redis.eval(DelayedScripts.RENEW, keys.inflightOnly, args).subscribe().with(
                    renewed -> onContext(this::renewDone),
                    failure -> onContext(() -> {
                        LOG.warnf("Renewing leases on delay queue %s failed: %s", keys.queue, failure.toString());
                        renewDone();
                    }));
        }
    }

    private void renewDone() {
        renewCalls--;
        checkStopped();
    }

    private void nack(Claimed message, String action, String reason) {
        List<String> args = List.of(keys.messagePrefix, message.id, message.token, action, Integer.toString(maxAttempts),
                Long.toString(backoffMillis), Long.toString(BACKOFF_CAP_MILLIS),
                Double.toString(ThreadLocalRandom.current().nextDouble()), reason);
        redisOperations++;
        sendNack(message, DelayedScripts.NACK, args, reason, 1);
    }

    private void sendNack(Claimed message, LuaScript script, List<String> args, String reason, int attempt) {
        redis.eval(script, script == DelayedScripts.NACK ? keys.dueInflightDead : keys.dueInflight, args).subscribe().with(
                response -> onContext(() -> {
                    int outcome = response.get(0).toInteger();
                    if (outcome == 1) {
                        retried.incrementAndGet();
                        armAt(response.get(1).toLong());
                    } else if (outcome == 2) {
                        deadLettered.incrementAndGet();
                        LOG.warnf("Message %s of delay queue %s was dead-lettered: %s", message.id, keys.queue, reason);
                    } else if (outcome == 4) {
                        throttled.incrementAndGet();
                        armAt(response.get(1).toLong());
                    }
                    operationDone();
                }),
                failure -> onContext(() -> {
                    if (attempt < MAX_SEND_ATTEMPTS) {
                        vertx.setTimer(Math.min(RETRY_CAP_MILLIS, RETRY_MILLIS << attempt),
                                id -> sendNack(message, script, args, reason, attempt + 1));
                        return;
                    }
                    LOG.warnf("Returning message %s of delay queue %s failed, its lease will expire: %s", message.id,
                            keys.queue, failure.toString());
                    operationDone();
                }));
    }

    private void operationDone() {
        redisOperations--;
        checkStopped();
    }

    /**
     * Stops claiming, releases messages whose handler has not started, and completes once running handlers have
     * finished and their outcome reached Redis.
     */
    CompletableFuture<Void> stop() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        onContext(() -> {
            stopping = true;
            stopped = done;
            if (timerId != -1) {
                vertx.cancelTimer(timerId);
                timerId = -1;
            }
            while (!waiting.isEmpty()) {
                Claimed message = waiting.poll();
                held.remove(message.token);
                nack(message, "release", "shutdown");
            }
            checkStopped();
        });
        return done;
    }

    private void checkStopped() {
        if (stopped != null && !stopped.isDone() && running == 0 && redisOperations == 0 && !claiming
                && acks.isEmpty() && !ackInFlight && !ackFlushScheduled && renewCalls == 0) {
            if (renewTimerId != -1) {
                vertx.cancelTimer(renewTimerId);
                renewTimerId = -1;
            }
            stopped.complete(null);
        }
    }
}
