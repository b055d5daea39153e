package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.ManyCallers;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.deployment.support.SecondInstance;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Decisions queued behind others on Pacer's connection go to Redis together, in one script call, with the outcomes
 * they would have had one by one: under 256 concurrent callers (blocking and {@code Uni}) the limits are exact, Redis
 * made every decision, and Redis ran fewer than one script call per two decisions. A key whose state the script cannot
 * read fails only its own decision in a batch (it is repaired and decided again), never its neighbours'.
 */
class ThrottleBatchedDecisionsTest {

    static final int CALLERS = 256;
    static final int CALLS_PER_CALLER = 8;
    static final int HOT_LIMIT = 1000;
    static final int STACK_LIMIT = 300;
    static final int CORRUPTED_LIMIT = 3;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, SecondInstance.class, RedisInfo.class, ManyCallers.class));

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    @AfterEach
    void everyDecisionCameFromRedis() {
        assertThat(engine.fallbackDecisions()).as("fallback decisions").isZero();
    }

    @Test
    void hotKeyIsExactWithFewerScriptCallsThanDecisions() throws Exception {
        long callsBefore = scriptCalls();
        int admitted = load(() -> admitted(api::hot));
        long scriptCalls = scriptCalls() - callsBefore;

        assertThat(admitted).isEqualTo(HOT_LIMIT);
        assertThat((double) scriptCalls / (CALLERS * CALLS_PER_CALLER)).as("script calls per decision (%d calls)",
                scriptCalls).isLessThan(0.5);
    }

    @Test
    void stackedReactiveDecisionsAreExactAllOrNothing() throws Exception {
        // Two policies per call (a fixed window of STACK_LIMIT and a bucket of twice that): the window is the limit,
        // and a call it rejects takes nothing from the bucket.
        int admitted = load(() -> {
            try {
                api.stacked().await().indefinitely();
                return true;
            } catch (ThrottledException rejected) {
                return false;
            }
        });

        assertThat(admitted).isEqualTo(STACK_LIMIT);
        Request level = Request.cmd(Command.HGET).arg(SecondInstance.globalKey(Api.STACK_BUCKET) + ":tb").arg("l");
        long windowMicros = 86_400_000_000L;
        long tokensLeft = Long.parseLong(redis.send(level).await().indefinitely().toString()) / windowMicros;
        assertThat(tokensLeft).as("tokens left in the bucket").isEqualTo(2 * STACK_LIMIT - STACK_LIMIT);
    }

    @Test
    void aCorruptedKeyInABatchFailsOnlyItsOwnDecision() throws Exception {
        redis.send(Request.cmd(Command.SET).arg(SecondInstance.globalKey(Api.CORRUPTED) + ":tb").arg("foreign"))
                .await().indefinitely();
        AtomicBoolean loading = new AtomicBoolean(true);
        List<Boolean> corrupted = new ArrayList<>();
        CompletableFuture<Integer> neighbours = CompletableFuture.supplyAsync(() -> {
            try {
                return load(() -> admitted(api::neighbour));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                loading.set(false);
            }
        });
        // One call at a time on the corrupted key, while the neighbours' calls queue on the same connection.
        while (loading.get() || corrupted.size() < 2 * CORRUPTED_LIMIT) {
            corrupted.add(admitted(api::corrupted));
        }

        assertThat(neighbours.get(60, TimeUnit.SECONDS)).isEqualTo(HOT_LIMIT);
        assertThat(corrupted.stream().filter(Boolean::booleanValue).count()).as("admitted on the repaired key")
                .isEqualTo(CORRUPTED_LIMIT);
    }

    private long scriptCalls() {
        return RedisInfo.calls(redis, "evalsha") + RedisInfo.calls(redis, "eval");
    }

    private static boolean admitted(Runnable call) {
        try {
            call.run();
            return true;
        } catch (ThrottledException rejected) {
            return false;
        }
    }

    private static int load(Callable<Boolean> call) throws Exception {
        return ManyCallers.run(CALLERS, CALLS_PER_CALLER, caller -> call.call());
    }

    @ApplicationScoped
    public static class Api {
        static final String HOT = "batched-hot";
        static final String STACK_WINDOW = "batched-window";
        static final String STACK_BUCKET = "batched-bucket";
        static final String NEIGHBOUR = "batched-neighbour";
        static final String CORRUPTED = "batched-corrupted";

        @Throttled(name = HOT, limit = HOT_LIMIT, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
        public void hot() {
        }

        // A day: the bucket refills one token in 144 s, never during the test.
        @Throttled(name = STACK_WINDOW, limit = STACK_LIMIT, window = "24h", algorithm = Algorithm.FIXED_WINDOW)
        @Throttled(name = STACK_BUCKET, limit = 2 * STACK_LIMIT, window = "24h", algorithm = Algorithm.TOKEN_BUCKET)
        public Uni<String> stacked() {
            return Uni.createFrom().item("ok");
        }

        @Throttled(name = NEIGHBOUR, limit = HOT_LIMIT, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
        public void neighbour() {
        }

        @Throttled(name = CORRUPTED, limit = CORRUPTED_LIMIT, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
        public void corrupted() {
        }
    }
}
