package io.quarkiverse.pacer.deployment.devui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.dev.ui.PacerDelayQueuesJsonRpcService;
import io.quarkiverse.pacer.runtime.dev.ui.PacerThrottlingJsonRpcService;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Every JSON-RPC method of the Dev UI pages, called on the service beans (registered here as Dev UI registers them in
 * dev mode): effective policies with sources, decision counts, key inspector and reset; queue depths with an
 * unconsumed queue marked, browsing, deliver now, cancel, replay, purge and test messages.
 */
class PacerJsonRpcServiceTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Orders.class, Order.class, RedisInfo.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"rpc-global\".limit", "3")
            .overrideConfigKey("quarkus.pacer.throttle.\"rpc-global\".window", "1h")
            .overrideConfigKey("quarkus.pacer.throttle.\"rpc-bucket\".limit", "50")
            .addBuildChainCustomizer(chain -> chain.addBuildStep(context -> context.produce(
                    AdditionalBeanBuildItem.builder()
                            .addBeanClasses(PacerThrottlingJsonRpcService.class, PacerDelayQueuesJsonRpcService.class)
                            .setUnremovable()
                            .setDefaultScope(BuiltinScope.SINGLETON.getName()).build()))
                    .produces(AdditionalBeanBuildItem.class).build());

    private static final Duration WAIT = Duration.ofSeconds(10);

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "rpc-window", limit = 2, window = "1m", algorithm = Algorithm.FIXED_WINDOW)
        @Throttled(name = "rpc-bucket", limit = 10, window = "1h")
        public String search(@ThrottleKey String tenant) {
            return "results for " + tenant;
        }

        @Throttled(name = "rpc-global", limit = 5, window = "1h")
        public String ping() {
            return "pong";
        }
    }

    public record Order(long id) {
    }

    @Singleton
    static class Orders {
        final List<Long> received = new CopyOnWriteArrayList<>();

        @Delayed(value = "rpc-queue", maxAttempts = 1)
        void expire(Order order) {
            received.add(order.id());
            if (order.id() == 13) {
                throw new IllegalStateException("unlucky order 13");
            }
        }
    }

    @Inject
    PacerThrottlingJsonRpcService throttling;

    @Inject
    PacerDelayQueuesJsonRpcService delayQueues;

    @Inject
    Api api;

    @Inject
    Orders orders;

    @Inject
    DelayedQueue queue;

    private static <T> T result(Uni<T> uni) {
        return uni.await().atMost(WAIT);
    }

    @Test
    void policiesShowEffectiveValuesWithSources() {
        JsonArray policies = throttling.getPolicies();
        assertThat(policies.size()).isEqualTo(3);

        JsonObject bucket = policies.getJsonObject(0);
        assertThat(bucket.getString("name")).isEqualTo("rpc-bucket");
        assertThat(bucket.getString("algorithm")).isEqualTo("TOKEN_BUCKET");
        assertThat(bucket.getInteger("limit")).isEqualTo(50);
        assertThat(bucket.getString("window")).isEqualTo("1h");
        assertThat(bucket.getInteger("burst")).isEqualTo(50);
        assertThat(bucket.getString("declaredOn")).isEqualTo(Api.class.getName() + "#search()");
        JsonObject bucketSources = bucket.getJsonObject("sources");
        assertThat(bucketSources.getString("limit")).isEqualTo("quarkus.pacer.throttle.\"rpc-bucket\".limit");
        assertThat(bucketSources.getString("window")).isEqualTo("@Throttled on " + Api.class.getName() + "#search()");
        assertThat(bucketSources.getString("burst")).isEqualTo("default (= limit)");

        JsonObject global = policies.getJsonObject(1);
        assertThat(global.getString("name")).isEqualTo("rpc-global");
        assertThat(global.getInteger("limit")).isEqualTo(3);
        assertThat(global.getJsonObject("sources").getString("limit"))
                .isEqualTo("quarkus.pacer.throttle.\"rpc-global\".limit");
        assertThat(global.getJsonObject("sources").getString("window"))
                .isEqualTo("quarkus.pacer.throttle.\"rpc-global\".window");

        JsonObject window = policies.getJsonObject(2);
        assertThat(window.getString("name")).isEqualTo("rpc-window");
        assertThat(window.getString("algorithm")).isEqualTo("FIXED_WINDOW");
        assertThat(window.getInteger("limit")).isEqualTo(2);
        assertThat(window.containsKey("burst")).as("no burst for a window algorithm").isFalse();
        assertThat(window.getJsonObject("sources").containsKey("burst")).isFalse();
        assertThat(window.getJsonArray("usedBy").getList()).containsExactly(Api.class.getName() + "#search(java.lang.String)");
    }

    @Test
    void runtimeOverridesShowTheirSourceAndAreSetAndCleared() {
        try {
            assertThat(result(throttling.setOverride("rpc-global", "7", "2m", "", "", "true")).getBoolean("override"))
                    .isTrue();
            JsonObject global = policies().get("rpc-global");
            assertThat(global.getInteger("limit")).isEqualTo(7);
            assertThat(global.getDouble("windowMillis")).isEqualTo(120_000.0);
            assertThat(global.getBoolean("shadow")).isTrue();
            assertThat(global.getJsonObject("sources").getString("limit")).isEqualTo("runtime override");
            assertThat(global.getJsonObject("sources").getString("window")).isEqualTo("runtime override");
            assertThat(global.getJsonObject("sources").getString("shadow")).isEqualTo("runtime override");
            assertThat(global.getJsonObject("override").getInteger("limit")).isEqualTo(7);
            assertThat(global.getJsonObject("override").getLong("windowMillis")).isEqualTo(120_000L);
            assertThat(global.getJsonObject("override").getValue("burst")).isNull();
        } finally {
            result(throttling.clearOverride("rpc-global"));
        }
        JsonObject global = policies().get("rpc-global");
        assertThat(global.getInteger("limit")).isEqualTo(3);
        assertThat(global.getValue("override")).isNull();
        assertThat(global.getJsonObject("sources").getString("limit"))
                .isEqualTo("quarkus.pacer.throttle.\"rpc-global\".limit");
        assertThatThrownBy(() -> result(throttling.setOverride("rpc-window", "0", "", "", "", "")))
                .hasMessageContaining("limit must be positive");
    }

    private Map<String, JsonObject> policies() {
        Map<String, JsonObject> byName = new TreeMap<>();
        throttling.getPolicies().forEach(row -> byName.put(((JsonObject) row).getString("name"), (JsonObject) row));
        return byName;
    }

    @Test
    void countsDecisionsInspectsAndResetsKeys() {
        api.search("acme");
        api.search("acme");
        assertThatThrownBy(() -> api.search("acme")).isInstanceOf(ThrottledException.class);
        api.ping();

        JsonArray counts = throttling.getDecisionCounts();
        assertThat(counts.getJsonObject(0).getMap()).containsEntry("policy", "rpc-bucket")
                .containsEntry("permitted", 2L).containsEntry("rejected", 0L).containsEntry("rejectedByOther", 1L)
                .containsEntry("fallback", 0L);
        assertThat(counts.getJsonObject(1).getMap()).containsEntry("policy", "rpc-global")
                .containsEntry("permitted", 1L).containsEntry("rejected", 0L);
        assertThat(counts.getJsonObject(2).getMap()).containsEntry("policy", "rpc-window")
                .containsEntry("permitted", 2L).containsEntry("rejected", 1L).containsEntry("rejectedByOther", 0L);

        JsonArray inspected = result(throttling.inspectKey("acme"));
        assertThat(inspected.size()).isEqualTo(3);
        assertThat(inspected.getJsonObject(0).getString("policy")).isEqualTo("rpc-bucket");
        assertThat(inspected.getJsonObject(0).getLong("remaining")).isEqualTo(48);
        assertThat(inspected.getJsonObject(0).getBoolean("allowed")).isTrue();
        assertThat(inspected.getJsonObject(0).getBoolean("global")).isFalse();
        JsonObject globalState = inspected.getJsonObject(1);
        assertThat(globalState.getString("policy")).isEqualTo("rpc-global");
        assertThat(globalState.getBoolean("global")).as("peeked at the global key, whatever the key typed").isTrue();
        assertThat(globalState.getString("key")).isEmpty();
        assertThat(globalState.getLong("remaining")).isEqualTo(2);
        JsonObject windowState = inspected.getJsonObject(2);
        assertThat(windowState.getString("policy")).isEqualTo("rpc-window");
        assertThat(windowState.getLong("remaining")).isZero();
        assertThat(windowState.getBoolean("allowed")).isFalse();
        assertThat(windowState.getDouble("retryAfterMillis")).isPositive();
        assertThat(result(throttling.inspectKey("other")).getJsonObject(2).getLong("remaining")).isEqualTo(2);

        JsonObject reset = result(throttling.resetKey("rpc-window", "acme"));
        assertThat(reset.getBoolean("reset")).isTrue();
        assertThat(result(throttling.inspectKey("acme")).getJsonObject(2).getLong("remaining")).isEqualTo(2);
        assertThat(api.search("acme")).isEqualTo("results for acme");
        assertThatThrownBy(() -> result(throttling.resetKey("no-such-policy", "acme")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown throttling policy");
    }

    @Test
    void listsQueuesBrowsesAndActs() {
        queue.scheduleWithId("rpc-queue", "w-1", new Order(1), Duration.ofHours(1));
        queue.scheduleWithId("rpc-queue", "w-2", new Order(2), Duration.ofHours(2));
        queue.scheduleWithId("rpc-queeu", "typo-1", new Order(3), Duration.ofHours(1));

        JsonArray queues = result(delayQueues.getQueues());
        assertThat(queues.size()).isEqualTo(2);
        JsonObject typo = queues.getJsonObject(0);
        assertThat(typo.getString("queue")).isEqualTo("rpc-queeu");
        assertThat(typo.getString("consumer")).isNull();
        assertThat(typo.getBoolean("consumedHere")).isFalse();
        assertThat(typo.getLong("scheduled")).isEqualTo(1);
        JsonObject consumed = queues.getJsonObject(1);
        assertThat(consumed.getString("queue")).isEqualTo("rpc-queue");
        assertThat(consumed.getString("consumer")).isEqualTo(Orders.class.getName() + "#expire");
        assertThat(consumed.getBoolean("consumedHere")).isTrue();
        assertThat(consumed.getInteger("maxAttempts")).isEqualTo(1);
        assertThat(consumed.getLong("scheduled")).isEqualTo(2);
        assertThat(consumed.getLong("overdue")).isZero();
        assertThat(consumed.getLong("oldestOverdueMillis")).isEqualTo(-1);
        assertThat(consumed.getLong("delivered")).isZero();

        JsonArray waiting = result(delayQueues.getWaitingMessages("rpc-queue", 10));
        assertThat(waiting.size()).isEqualTo(2);
        assertThat(waiting.getJsonObject(0).getString("id")).isEqualTo("w-1");
        assertThat(waiting.getJsonObject(0).getString("payload")).isEqualTo("{\"id\":1}");
        assertThat(waiting.getJsonObject(1).getString("id")).isEqualTo("w-2");
        assertThat(result(delayQueues.getWaitingMessages("rpc-queue", 1)).size()).isEqualTo(1);

        assertThat(result(delayQueues.deliverNow("rpc-queue", "w-1")).getLong("count")).isEqualTo(1);
        await().atMost(WAIT).until(() -> orders.received.contains(1L));
        assertThat(result(delayQueues.cancel("rpc-queue", "w-2")).getLong("count")).isEqualTo(1);
        assertThat(result(delayQueues.cancel("rpc-queue", "w-2")).getLong("count")).isZero();
        await().atMost(WAIT).until(() -> result(delayQueues.getWaitingMessages("rpc-queue", 10)).isEmpty());

        JsonObject scheduled = result(delayQueues.scheduleTestMessage("rpc-queue", "t-13", "{\"id\": 13}", 0));
        assertThat(scheduled.getString("id")).isEqualTo("t-13");
        JsonArray dead = awaitDeadLetters(1);
        assertThat(dead.getJsonObject(0).getString("id")).isEqualTo("t-13");
        assertThat(dead.getJsonObject(0).getString("reason"))
                .isEqualTo("java.lang.IllegalStateException: unlucky order 13");
        assertThat(dead.getJsonObject(0).getInteger("attempts")).isEqualTo(1);
        assertThat(dead.getJsonObject(0).getString("payload")).isEqualTo("{\"id\": 13}");

        assertThat(result(delayQueues.replay("rpc-queue", "t-13")).getLong("count")).isEqualTo(1);
        await().atMost(WAIT).until(() -> orders.received.stream().filter(id -> id == 13).count() == 2);
        awaitDeadLetters(1);
        assertThat(result(delayQueues.replayAll("rpc-queue")).getLong("count")).isEqualTo(1);
        await().atMost(WAIT).until(() -> orders.received.stream().filter(id -> id == 13).count() == 3);
        awaitDeadLetters(1);
        assertThat(result(delayQueues.purge("rpc-queue", "t-13")).getLong("count")).isEqualTo(1);
        awaitDeadLetters(0);

        result(delayQueues.scheduleTestMessage("rpc-queue", "", "{\"id\": 13}", 0));
        awaitDeadLetters(1);
        assertThat(result(delayQueues.purgeAll("rpc-queue")).getLong("count")).isEqualTo(1);
        awaitDeadLetters(0);
        JsonObject after = result(delayQueues.getQueues()).getJsonObject(1);
        assertThat(after.getLong("delivered")).isEqualTo(1);
        assertThat(after.getLong("deadLettered")).isEqualTo(4);

        assertThatThrownBy(() -> result(delayQueues.scheduleTestMessage("rpc-queue", "bad", "{oops", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a JSON " + Order.class.getName());
        assertThat(result(delayQueues.getWaitingMessages("rpc-queue", 10))).isEmpty();
    }

    private JsonArray awaitDeadLetters(int count) {
        await().atMost(WAIT).until(() -> result(delayQueues.getDeadLetters("rpc-queue", 10)).size() == count);
        return result(delayQueues.getDeadLetters("rpc-queue", 10));
    }
}
