package io.quarkiverse.pacer.topologies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DeadLetter;
import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.delay.ReactiveDelayedQueue;
import io.quarkiverse.pacer.delay.ScheduledMessage;
import io.quarkiverse.pacer.runtime.delay.DelayedScripts;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.test.support.ClusterReshard;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Delay queues split in 6 shards on a local 3-master Redis Cluster: 3,000 messages are all delivered while a second
 * consumer instance (a cluster client running the claim and ack scripts) dies holding a claimed batch, and while the
 * queue's slots move between masters; dead letters are listed, replayed and purged across shards.
 */
class ClusterDelayedTest {

    private static final int MESSAGES = 3000;
    private static final int SHARDS = 6;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(
                    jar -> jar.addClasses(Consumers.class, ClusterReshard.class, RedisInfo.class, RedisCommands.class))
            .overrideConfigKey("quarkus.pacer.devservices.topology", "cluster")
            .overrideConfigKey("quarkus.pacer.delayed.shards", Integer.toString(SHARDS))
            .overrideConfigKey("quarkus.pacer.delayed.batch-size", "20")
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "1s")
            .overrideConfigKey("quarkus.pacer.delayed.\"moved\".lease", "2s");

    @Singleton
    static class Consumers {
        final Set<String> orders = ConcurrentHashMap.newKeySet();
        final AtomicInteger orderCalls = new AtomicInteger();
        final Set<String> moved = ConcurrentHashMap.newKeySet();
        final AtomicInteger movedCalls = new AtomicInteger();
        final AtomicInteger poisonCalls = new AtomicInteger();
        volatile boolean poisonFails = true;
        /**
         * Holds this application's "orders" handlers until the other instance has died: while they wait, this
         * application claims at most a bounded number of messages, so the other instance always finds messages to
         * consume and to die holding, however the machine schedules the threads.
         */
        final CountDownLatch ordersGate = new CountDownLatch(1);

        @Delayed(value = "orders", concurrency = 8)
        void order(String id) throws InterruptedException {
            if (!ordersGate.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the test never opened the orders gate");
            }
            orderCalls.incrementAndGet();
            orders.add(id);
        }

        @Delayed(value = "moved", concurrency = 8)
        void moved(String id) {
            movedCalls.incrementAndGet();
            moved.add(id);
        }

        @Delayed(value = "poison", maxAttempts = 1)
        void poison(String id) {
            poisonCalls.incrementAndGet();
            if (poisonFails) {
                throw new IllegalStateException("poisoned " + id);
            }
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    ReactiveDelayedQueue reactiveQueue;

    @Inject
    Consumers consumers;

    @Inject
    Vertx vertx;

    @Test
    void everyMessageIsDeliveredWhenASecondInstanceDiesHoldingMessages() throws Exception {
        scheduleAll("orders", Instant.now().plusMillis(1000));

        LuaScript claim = DelayedScripts.CLAIM;
        LuaScript ack = DelayedScripts.ACK;
        List<String> acked = new ArrayList<>();
        List<String> lostWithTheInstance = new CopyOnWriteArrayList<>();
        Redis other = clusterClient();
        try {
            int call = 0;
            // The other instance consumes a share of the messages, then claims one batch per shard and dies (kill -9:
            // no ack, no release); its leases expire after 2 s and the application delivers those messages. The
            // application's handlers wait meanwhile (ordersGate), so it cannot take every message first.
            while (acked.size() < 300 && queue.size("orders") > 0) {
                for (int shard = 0; shard < SHARDS; shard++) {
                    String base = "pacer:d:{orders#" + shard + "}:";
                    Response claimed = eval(other, claim, RedisCommands.shardKeys(base),
                            List.of("10", "2000", "100", "other-" + call++));
                    List<String> pairs = new ArrayList<>();
                    for (int i = 3; i < claimed.size(); i += 7) {
                        pairs.add(claimed.get(i).toString());
                        pairs.add(claimed.get(i + 1).toString());
                    }
                    if (!pairs.isEmpty()) {
                        Response count = eval(other, ack, RedisCommands.shardKeys(base), pairs);
                        assertThat(count.toInteger()).isEqualTo(pairs.size() / 2);
                        for (int i = 0; i < pairs.size(); i += 2) {
                            acked.add(pairs.get(i));
                        }
                    }
                }
            }
            // It dies right after a claim that got messages: claimed until one did (the next messages may not be due
            // yet at the first try, however fast or slow the loop above was).
            AtomicInteger dyingClaims = new AtomicInteger();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (int shard = 0; shard < SHARDS; shard++) {
                    String base = "pacer:d:{orders#" + shard + "}:";
                    Response claimed = eval(other, claim, RedisCommands.shardKeys(base),
                            List.of("10", "2000", "100", "dying-" + dyingClaims.getAndIncrement()));
                    for (int i = 3; i < claimed.size(); i += 7) {
                        lostWithTheInstance.add(claimed.get(i).toString());
                    }
                }
                return !lostWithTheInstance.isEmpty();
            });
        } finally {
            other.close();
            consumers.ordersGate.countDown();
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> consumers.orders.size() + acked.size() >= MESSAGES);
        assertThat(acked).as("the other instance consumed a share").isNotEmpty();
        assertThat(lostWithTheInstance).as("the other instance died holding messages").isNotEmpty();
        assertThat(consumers.orders).containsAll(lostWithTheInstance);
        Set<String> all = new HashSet<>(consumers.orders);
        all.addAll(acked);
        assertThat(all).hasSize(MESSAGES);
        Set<String> both = new HashSet<>(acked);
        both.retainAll(consumers.orders);
        assertThat(both).as("delivered by both instances").isEmpty();
        assertThat(consumers.orderCalls.get()).isEqualTo(consumers.orders.size());
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.size("orders") == 0);
    }

    @Test
    void everyMessageIsDeliveredWhileTheQueueMovesBetweenMasters() throws Exception {
        // Half are due over 1.5 s, so messages are claimed and acknowledged while their slots move; the other half waits
        // (due in an hour) so that the slots hold messages when they move, however long anything takes on a busy
        // machine, and is made due once they moved.
        Instant start = Instant.now().plusMillis(1000);
        Instant later = Instant.now().plus(Duration.ofHours(1));
        schedule("moved", i -> i % 2 == 0 ? start.plusMillis(i / 2) : later);
        ClusterReshard reshard = new ClusterReshard(ConfigProvider.getConfig().getValue("quarkus.redis.hosts",
                String.class));
        // A producer keeps scheduling while the slots move: no call may fail.
        AtomicBoolean moving = new AtomicBoolean(true);
        Set<String> scheduledDuringMove = ConcurrentHashMap.newKeySet();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Thread producer = new Thread(() -> {
            for (int i = 0; moving.get(); i++) {
                String id = "during-" + i;
                try {
                    queue.scheduleWithId("moved", id, id, Duration.ofMillis(200));
                    scheduledDuringMove.add(id);
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> !consumers.moved.isEmpty());
        producer.start();
        int movedKeys = 0;
        long pendingInMovedSlots = 0;
        try {
            for (int shard = 0; shard < SHARDS; shard++) {
                int slot = reshard.slotOf("pacer:d:{moved#" + shard + "}:due");
                // A shard's messages are the fields of one hash, which moves with its sets.
                pendingInMovedSlots += reshard.hashLength("pacer:d:{moved#" + shard + "}:messages");
                movedKeys += reshard.move(slot, reshard.otherThan(reshard.ownerOf(slot)));
            }
        } finally {
            moving.set(false);
            producer.join(30_000);
        }
        assertThat(pendingInMovedSlots).as("messages pending in the slots when they moved")
                .isGreaterThanOrEqualTo(MESSAGES / 2);
        assertThat(movedKeys).as("keys migrated: at least each shard's due set and messages hash")
                .isGreaterThanOrEqualTo(2 * SHARDS);
        assertThat(failures).as("schedule calls failed while slots moved").isEmpty();
        assertThat(scheduledDuringMove).isNotEmpty();
        List<ScheduledMessage> waiting = new ArrayList<>();
        for (int i = 1; i < MESSAGES; i += 2) {
            waiting.add(ScheduledMessage.of("moved-" + i, "moved-" + i, Instant.now()));
        }
        queue.scheduleAll("moved", waiting);

        await().atMost(Duration.ofSeconds(60))
                .until(() -> consumers.moved.size() >= MESSAGES + scheduledDuringMove.size());
        assertThat(consumers.moved).hasSize(MESSAGES + scheduledDuringMove.size());
        // An acknowledgement that met a half-moved slot leaves its message to the lease: delivered again, at least once.
        await().atMost(Duration.ofSeconds(60)).until(() -> queue.size("moved") == 0);
    }

    @Test
    void deadLettersAreListedReplayedAndPurgedAcrossShards() {
        for (int i = 0; i < 12; i++) {
            queue.scheduleWithId("poison", "p-" + i, "p-" + i, Duration.ZERO);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> queue.deadLetters("poison", 100).size() == 12);
        List<DeadLetter> dead = queue.deadLetters("poison", 100);
        assertThat(dead).extracting(DeadLetter::id).containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, 12).mapToObj(i -> "p-" + i).toList());

        consumers.poisonFails = false;
        assertThat(queue.replay("poison", "p-0")).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> queue.deadLetters("poison", 100).size() == 11);
        assertThat(queue.purgeDeadLetters("poison")).isEqualTo(11);
        assertThat(queue.deadLetters("poison", 100)).isEmpty();
        assertThat(queue.size("poison")).isZero();
    }

    /** Schedules {@link #MESSAGES} messages due one millisecond apart from {@code start}. */
    private void scheduleAll(String queueName, Instant start) {
        schedule(queueName, start::plusMillis);
    }

    /** Schedules {@link #MESSAGES} messages, message {@code i} due at {@code dueAt(i)}. */
    private void schedule(String queueName, IntFunction<Instant> dueAt) {
        Multi.createFrom().range(0, MESSAGES)
                .onItem().transformToUni(i -> reactiveQueue.scheduleWithId(queueName, queueName + "-" + i, queueName + "-" + i,
                        dueAt.apply(i)))
                .merge(64)
                .collect().asList().await().atMost(Duration.ofSeconds(120));
    }

    private Redis clusterClient() {
        RedisOptions options = new RedisOptions().setType(RedisClientType.CLUSTER).setMaxPoolSize(8)
                .setMaxPoolWaiting(64);
        for (String host : ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class).split(",")) {
            options.addConnectionString(host.trim());
        }
        return Redis.createClient(vertx, options);
    }

    private static Response eval(Redis client, LuaScript script, List<String> keys, List<String> args) {
        Request request = Request.cmd(Command.EVAL).arg(script.source()).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return client.send(request).toCompletionStage().toCompletableFuture()
                .orTimeout(10, java.util.concurrent.TimeUnit.SECONDS)
                .join();
    }

}
