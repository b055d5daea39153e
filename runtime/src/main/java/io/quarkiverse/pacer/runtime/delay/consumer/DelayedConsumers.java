package io.quarkiverse.pacer.runtime.delay.consumer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.pacer.runtime.PacerStartup;
import io.quarkiverse.pacer.runtime.config.DelayedRuntimeConfig;
import io.quarkiverse.pacer.runtime.config.PacerConfig;
import io.quarkiverse.pacer.runtime.delay.DelayedConsumerDefinition;
import io.quarkiverse.pacer.runtime.delay.DelayedHandler;
import io.quarkiverse.pacer.runtime.delay.DelayedKeys;
import io.quarkiverse.pacer.runtime.delay.DelayedMetrics;
import io.quarkiverse.pacer.runtime.delay.DelayedQueueNames;
import io.quarkiverse.pacer.runtime.delay.HandlersByQueue;
import io.quarkiverse.pacer.runtime.delay.producer.RedisDelayedQueue;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The consumers of this instance: at startup, one {@link QueueConsumer} per enabled queue of the {@link HandlersByQueue}
 * (with a {@link DelayedConsumerLoop} per shard), the safety poll (a {@code quarkus-scheduler} job) and the wake-up
 * subscription; at shutdown, a graceful stop. Also checks the delay-queue configuration.
 */
@Singleton
public class DelayedConsumers {

    private static final Logger LOG = Logger.getLogger(DelayedConsumers.class);
    static final String POLL_JOB = "pacer-delayed-poll";
    /** SCAN calls per safety poll looking for unconsumed queues: bounds the work on a large key space. */
    static final int UNCONSUMED_SCAN_CALLS_PER_POLL = 5;

    private final HandlersByQueue handlers;
    /** The queues this instance consumes, by name; filled at startup. */
    private final Map<String, QueueConsumer> consumers = new LinkedHashMap<>();
    private final PacerRedis redis;
    private final PacerConfig config;
    private final RedisDelayedQueue queue;
    private final Vertx vertx;
    private final Instance<Scheduler> scheduler;
    private final String instanceId = UUID.randomUUID().toString();
    private final Set<String> reportedUnconsumed = ConcurrentHashMap.newKeySet();
    private DelayedWakeUps wakeUps;
    private long pollTimerId = -1;

    DelayedConsumers(HandlersByQueue handlers, PacerRedis redis, PacerConfig config, RedisDelayedQueue queue, Vertx vertx,
            Instance<Scheduler> scheduler) {
        this.handlers = handlers;
        this.redis = redis;
        this.config = config;
        this.queue = queue;
        this.vertx = vertx;
        this.scheduler = scheduler;
    }

    /**
     * The {@code @Delayed} methods of this application with their effective settings (annotation and configuration
     * overrides), sorted by queue.
     */
    public List<ConsumerSettings> consumers() {
        DelayedRuntimeConfig delayed = config.delayed();
        List<ConsumerSettings> all = new ArrayList<>();
        for (DelayedHandler handler : handlers.all()) {
            all.add(ConsumerSettings.of(handler.definition(), delayed));
        }
        return all;
    }

    /** Counters of the consumer of {@code queue} in this instance, or {@code null} if it does not consume it. */
    public DelayedConsumerStats stats(String queue) {
        QueueConsumer consumer = consumers.get(queue);
        return consumer == null ? null : consumer.stats();
    }

    /** The queues this instance consumes. */
    public Set<String> consumedQueues() {
        return Collections.unmodifiableSet(consumers.keySet());
    }

    /**
     * Makes every consumer of this instance claim now, as the safety poll does: for callers that made messages due
     * without a wake-up (the test kit, after moving its clock).
     */
    public void pollNow() {
        consumers.values().forEach(QueueConsumer::poll);
    }

    void start(@Observes @Priority(PacerStartup.RUN_APPLICATION_CODE) StartupEvent event) {
        DelayedRuntimeConfig delayed = config.delayed();
        // Validated by PacerConfigValidation before any Pacer startup observer runs.
        if (handlers.isEmpty()) {
            return;
        }
        // Not awaited: startup does not wait for Redis, the warning comes when Redis answers.
        new RedisEvictionPolicyCheck(redis).check().subscribe().with(policy -> {
        });
        if (!ConsumerSettings.consumes(delayed)) {
            LOG.debugf("quarkus.pacer.delayed.enabled or consumer.enabled is false: this instance consumes no delay"
                    + " queue");
            return;
        }
        Map<String, DelayedConsumerLoop> byChannel = new LinkedHashMap<>();
        for (DelayedHandler handler : handlers.all()) {
            DelayedConsumerDefinition definition = handler.definition();
            ConsumerSettings settings = ConsumerSettings.of(definition, delayed);
            if (!settings.enabled()) {
                LOG.debugf("Delay queue %s is disabled in this instance", definition.getQueue());
                continue;
            }
            // Created off the event loop, this is a fresh event-loop context: each queue gets its own thread.
            QueueConsumer consumer = new QueueConsumer(settings, HandlerInvoker.of(definition, handler.invoker()),
                    new HandlerArguments(definition, queue.codec()), redis, queue.metrics(), queue.tracing(), vertx,
                    vertx.getOrCreateContext());
            for (DelayedKeys keys : queue.shards(definition.getQueue())) {
                byChannel.put(keys.wakeChannel, consumer.addShard(keys, instanceId));
            }
            String name = definition.getQueue();
            consumers.put(name, consumer);
            queue.metrics().consuming(name, () -> stats(name));
            LOG.debugf("Consuming delay queue %s with %s (concurrency %d, max attempts %d, backoff %dms, lease %dms)",
                    definition.getQueue(), definition.describe(), settings.concurrency(), settings.maxAttempts(),
                    settings.backoffMillis(), settings.leaseMillis());
        }
        if (consumers.isEmpty()) {
            return;
        }
        wakeUps = new DelayedWakeUps(redis, byChannel, vertx);
        wakeUps.ensureSubscribed();
        consumers.values().forEach(QueueConsumer::start);
        Scheduler jobs = scheduler.isResolvable() ? scheduler.get() : null;
        if (jobs != null && jobs.isStarted()) {
            Scheduler.JobDefinition<?> poll = jobs.newJob(POLL_JOB)
                    .setInterval(delayed.pollInterval().toString())
                    .setAsyncTask(execution -> safetyPoll());
            if (Scheduled.AUTO.equals(jobs.implementation())) {
                // The composite scheduler's default may be PACER (or Quartz's clustered store): each instance polls
                // its own consumers, so the poll runs on Quarkus's in-memory scheduler, which the composite always has.
                poll.setExecuteWith(Scheduled.SIMPLE);
            }
            poll.schedule();
        } else {
            // quarkus.scheduler.enabled=false: the safety poll must run all the same.
            LOG.warnf("The Quarkus scheduler is disabled; delay queues poll with a Vert.x timer every %s",
                    delayed.pollInterval());
            pollTimerId = vertx.setPeriodic(delayed.pollInterval().toMillis(), id -> safetyPoll().subscribe().with(
                    ignored -> {
                    }, failure -> LOG.debugf("Delay queue safety poll failed: %s", failure)));
        }
    }

    private Uni<Void> safetyPoll() {
        consumers.values().forEach(QueueConsumer::poll);
        return refreshDepths();
    }

    /**
     * Feeds the depth gauges; only with metrics: one O(log n) script call per queue, and a few bounded {@code SCAN}
     * calls that look for queues nothing here consumes.
     */
    private Uni<Void> refreshDepths() {
        DelayedMetrics metrics = queue.metrics();
        if (metrics == DelayedMetrics.NONE) {
            return Uni.createFrom().voidItem();
        }
        List<Uni<Void>> refreshes = new ArrayList<>();
        for (String name : consumers.keySet()) {
            refreshes.add(queue.depth(name)
                    .invoke(metrics::depth)
                    .replaceWithVoid()
                    .onFailure().recoverWithNull());
        }
        refreshes.add(refreshUnconsumed(metrics).onFailure().recoverWithNull());
        return Uni.join().all(refreshes).andCollectFailures().replaceWithVoid();
    }

    private Uni<Void> refreshUnconsumed(DelayedMetrics metrics) {
        return queue.unconsumed().advance(UNCONSUMED_SCAN_CALLS_PER_POLL).flatMap(found -> {
            List<Uni<Void>> depths = new ArrayList<>();
            for (String name : found) {
                depths.add(queue.depth(name).invoke(depth -> metrics.unconsumed(name, depth)).replaceWithVoid());
            }
            for (String gone : reportedUnconsumed) {
                if (!found.contains(gone)) {
                    metrics.unconsumed(gone, null);
                }
            }
            reportedUnconsumed.addAll(found);
            return depths.isEmpty() ? Uni.createFrom().voidItem()
                    : Uni.join().all(depths).andCollectFailures().replaceWithVoid();
        });
    }

    void stop(@Observes ShutdownEvent event) {
        if (consumers.isEmpty()) {
            return;
        }
        if (pollTimerId != -1) {
            vertx.cancelTimer(pollTimerId);
            pollTimerId = -1;
        } else if (scheduler.isResolvable() && scheduler.get().isStarted()) {
            scheduler.get().unscheduleJob(POLL_JOB);
        }
        wakeUps.close();
        List<CompletableFuture<Void>> stopping = new ArrayList<>();
        consumers.values().forEach(consumer -> stopping.addAll(consumer.stop()));
        Duration timeout = config.delayed().shutdownTimeout();
        try {
            CompletableFuture.allOf(stopping.toArray(CompletableFuture[]::new)).get(timeout.toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warnf("Delay queue handlers still running after %s; their messages return when their leases expire",
                    timeout);
        } catch (Exception e) {
            LOG.warnf("Stopping delay queue consumers failed: %s", e.toString());
        }
    }

    /** Every problem of the delay-queue configuration, each naming its property; empty when it is valid. */
    public static List<String> configurationProblems(DelayedRuntimeConfig delayed) {
        List<String> problems = new ArrayList<>();
        if (delayed.batchSize() < 1) {
            problems.add("quarkus.pacer.delayed.batch-size must be at least 1, was " + delayed.batchSize());
        }
        if (delayed.batchSize() > 10_000) {
            problems.add("quarkus.pacer.delayed.batch-size must be at most 10000, was " + delayed.batchSize());
        }
        if (delayed.pollInterval().isNegative() || delayed.pollInterval().isZero()) {
            problems.add("quarkus.pacer.delayed.poll-interval must be positive, was " + delayed.pollInterval());
        }
        if (delayed.shards() < 1 || delayed.shards() > 1024) {
            problems.add("quarkus.pacer.delayed.shards must be between 1 and 1024, was " + delayed.shards());
        }
        if (delayed.durabilityTimeout().isNegative() || delayed.durabilityTimeout().isZero()) {
            problems.add("quarkus.pacer.delayed.durability-timeout must be positive, was "
                    + delayed.durabilityTimeout());
        }
        if (delayed.shutdownTimeout().isNegative()) {
            problems.add("quarkus.pacer.delayed.shutdown-timeout must not be negative, was " + delayed.shutdownTimeout());
        }
        if (delayed.producerTimeout().isNegative()) {
            problems.add("quarkus.pacer.delayed.producer-timeout must not be negative, was " + delayed.producerTimeout());
        }
        if (delayed.afterCommit().retryFor().isNegative()) {
            problems.add("quarkus.pacer.delayed.after-commit.retry-for must not be negative, was "
                    + delayed.afterCommit().retryFor());
        }
        delayed.queues().forEach((name, queueConfig) -> {
            String prefix = "quarkus.pacer.delayed.\"" + name + "\".";
            String reserved = DelayedQueueNames.reservedProblem(name);
            if (reserved != null) {
                // quarkus.pacer.delayed.consumer.enabled lands here too: only a queue's own settings are a mistake.
                String set = queueConfig.concurrency().isPresent() ? "concurrency"
                        : queueConfig.maxAttempts().isPresent() ? "max-attempts"
                                : queueConfig.backoff().isPresent() ? "backoff"
                                        : queueConfig.lease().isPresent() ? "lease" : null;
                if (set != null) {
                    problems.add(prefix + set + ": " + reserved);
                }
                return;
            }
            queueConfig.concurrency().ifPresent(value -> {
                if (value < 1) {
                    problems.add(prefix + "concurrency must be at least 1, was " + value);
                }
            });
            queueConfig.maxAttempts().ifPresent(value -> {
                if (value < 1) {
                    problems.add(prefix + "max-attempts must be at least 1, was " + value);
                }
            });
            queueConfig.backoff().ifPresent(value -> {
                if (value.isNegative()) {
                    problems.add(prefix + "backoff must not be negative, was " + value);
                }
            });
            queueConfig.lease().ifPresent(value -> {
                if (value.compareTo(ConsumerSettings.MIN_LEASE) < 0) {
                    problems.add(prefix + "lease must be at least " + ConsumerSettings.MIN_LEASE.toMillis() + "ms, was "
                            + value);
                }
            });
        });
        return problems;
    }
}
