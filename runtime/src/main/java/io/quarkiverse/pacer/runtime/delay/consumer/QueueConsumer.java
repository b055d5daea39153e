package io.quarkiverse.pacer.runtime.delay.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedMetrics;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.tracing.DelayedTracing;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The consumer of one queue in this instance: its settings and handler, and the shard loops reading the queue, which
 * all run on one Vert.x event-loop context and share the handler slots ({@code concurrency}).
 */
final class QueueConsumer {

    final ConsumerSettings settings;
    final HandlerInvoker invoker;
    final HandlerArguments arguments;
    final PacerRedis redis;
    final DelayedMetrics metrics;
    final DelayedTracing tracing;
    final Vertx vertx;
    final Context context;
    private final List<DelayedConsumerLoop> loops = new ArrayList<>();
    /** Handlers running over all shards; confined to the context. */
    private int running;

    QueueConsumer(ConsumerSettings settings, HandlerInvoker invoker, HandlerArguments arguments, PacerRedis redis,
            DelayedMetrics metrics, DelayedTracing tracing, Vertx vertx, Context context) {
        this.settings = settings;
        this.invoker = invoker;
        this.arguments = arguments;
        this.redis = redis;
        this.metrics = metrics;
        this.tracing = tracing;
        this.vertx = vertx;
        this.context = context;
    }

    String queue() {
        return settings.queue();
    }

    DelayedConsumerLoop addShard(DelayedKeys keys, String instanceId) {
        DelayedConsumerLoop loop = new DelayedConsumerLoop(this, keys, instanceId);
        loops.add(loop);
        return loop;
    }

    /** Runs {@code action} on the consumer's context: at once when already there. */
    void onContext(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }

    /** Takes a handler slot if one is free. */
    boolean tryAcquireSlot() {
        if (running < settings.concurrency()) {
            running++;
            return true;
        }
        return false;
    }

    void releaseSlot() {
        running--;
    }

    /** A slot freed by {@code from} may serve another shard's waiting messages. */
    void resumeOthers(DelayedConsumerLoop from) {
        for (DelayedConsumerLoop other : loops) {
            if (other != from) {
                other.resume();
            }
        }
    }

    DelayedConsumerStats stats() {
        List<DelayedConsumerStats> shards = new ArrayList<>(loops.size());
        loops.forEach(loop -> shards.add(loop.stats()));
        return ConsumerCounters.sum(queue(), shards);
    }

    void start() {
        loops.forEach(DelayedConsumerLoop::start);
    }

    void poll() {
        loops.forEach(DelayedConsumerLoop::poll);
    }

    List<CompletableFuture<Void>> stop() {
        List<CompletableFuture<Void>> stopping = new ArrayList<>(loops.size());
        loops.forEach(loop -> stopping.add(loop.stop()));
        return stopping;
    }
}
