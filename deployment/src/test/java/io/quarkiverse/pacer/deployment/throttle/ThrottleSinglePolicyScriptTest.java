package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.ScriptClockShift;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleScripts;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyBuilder;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ReactiveThrottler;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.ThrottleOverride;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * An acquire against one policy goes as its algorithm's single-policy script and decides exactly as the general
 * script: the same sequence of calls (costs 1 to 3, time steps from 0 to beyond the window, a limit and window changed
 * halfway) on two keys, one through each script, at the same instants (a clock that stands still between steps), gives
 * the same decision every time (allowed, remaining, retry-after, reset-after), the same stored state and the same TTL.
 * Token bucket and sliding log; blocking and reactive calls; alone and in batches.
 */
class ThrottleSinglePolicyScriptTest {

    static final int STEPS = 150;
    static final int BATCH_STEPS = 40;
    /** More than the calls of a group a connection sends before the next wait for a batch (2). */
    static final int CALLS_TOGETHER = 12;
    /**
     * The declared window: an hour, so that no state expires in real time while the test runs (the clock of the
     * scripts stands still between steps, Redis's TTLs do not).
     */
    static final long WINDOW_MICROS = 3_600_000_000L;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class)
                    .addAsResource("META-INF/pacer/frozen-clock-for-test.lua"))
            // Every decision asks Redis: a local rejection would hide what the script answered.
            .overrideConfigKey("quarkus.pacer.throttle.local-rejections.enabled", "false");

    @Inject
    Throttler throttler;

    @Inject
    ReactiveThrottler reactive;

    @Inject
    ThrottleEngine engine;

    @Inject
    PacerRedis redis;

    private final FrozenClock clock = new FrozenClock();

    @AfterEach
    void restore() {
        LuaScript.shiftClock(null);
        engine.singlePolicyScripts(true);
        throttler.clearOverride(Api.BUCKET);
        throttler.clearOverride(Api.LOG);
    }

    @Test
    void tokenBucketDecidesAsTheGeneralScript() {
        sameDecisions(Api.BUCKET, Algorithm.TOKEN_BUCKET, ":tb",
                ThrottleOverride.of().withLimit(7).withWindow(Duration.ofHours(2))
                        .withBurst(9));
    }

    @Test
    void slidingLogDecidesAsTheGeneralScript() {
        sameDecisions(Api.LOG, Algorithm.SLIDING_LOG, ":sl",
                ThrottleOverride.of().withLimit(6).withWindow(Duration.ofHours(2)));
    }

    private void sameDecisions(String policy, Algorithm algorithm, String suffix, ThrottleOverride halfway) {
        // Pacer loads a script again when Redis does not know it: what exists afterwards is what the calls ran.
        send(Request.cmd(Command.SCRIPT).arg("FLUSH"));
        LuaScript.shiftClock(clock);
        Random random = new Random(34);
        for (int step = 0; step < STEPS; step++) {
            if (step == STEPS / 2) {
                throttler.override(policy, halfway);
            }
            advance(random, 4);
            int cost = 1 + random.nextInt(3);
            boolean blocking = random.nextBoolean();

            engine.singlePolicyScripts(false);
            ThrottleDecision general = acquire(blocking, policy, "general", cost);
            engine.singlePolicyScripts(true);
            ThrottleDecision single = acquire(blocking, policy, "single", cost);

            String at = "step " + step + " (cost " + cost + ", " + (blocking ? "blocking" : "reactive") + ")";
            assertThat(single.allowed()).as(at).isEqualTo(general.allowed());
            assertThat(single.limit()).as(at).isEqualTo(general.limit());
            assertThat(single.remaining()).as(at).isEqualTo(general.remaining());
            assertThat(single.retryAfter()).as(at).isEqualTo(general.retryAfter());
            assertThat(single.resetAfter()).as(at).isEqualTo(general.resetAfter());
            assertThat(state(policy, "single", suffix)).as(at).isEqualTo(state(policy, "general", suffix));
            long ttlGeneral = ttl(policy, "general", suffix);
            long ttlSingle = ttl(policy, "single", suffix);
            // Set from the same instant, a few milliseconds apart in real time.
            assertThat(Math.abs(ttlSingle - ttlGeneral)).as(at + ": TTL %d against %d ms", ttlSingle, ttlGeneral)
                    .isLessThanOrEqualTo(1_000);
        }
        // Both scripts decided: the general one for one key, the single-policy one for the other.
        Response loaded = send(Request.cmd(Command.SCRIPT).arg("EXISTS")
                .arg(ThrottleScripts.of(EnumSet.of(algorithm)).toSend().sha1())
                .arg(engine.singlePolicyScript(algorithm).toSend().sha1()));
        assertThat(loaded.get(0).toInteger()).as("general script ran").isEqualTo(1);
        assertThat(loaded.get(1).toInteger()).as("single-policy script ran").isEqualTo(1);
    }

    @Test
    void tokenBucketBatchesDecideAsTheGeneralScript() {
        sameBatchedDecisions(Api.BUCKET, Algorithm.TOKEN_BUCKET, ":tb",
                ThrottleOverride.of().withLimit(20).withWindow(Duration.ofHours(2)).withBurst(30));
    }

    @Test
    void slidingLogBatchesDecideAsTheGeneralScript() {
        sameBatchedDecisions(Api.LOG, Algorithm.SLIDING_LOG, ":sl",
                ThrottleOverride.of().withLimit(20).withWindow(Duration.ofHours(2)));
    }

    /**
     * Acquires fired together queue on Pacer's connection behind the first ones and go to Redis in one call: through
     * the single-policy batch script they get the same decisions (in some order: all at one instant and of one cost),
     * and leave the same state, as through the general batch script.
     */
    private void sameBatchedDecisions(String policy, Algorithm algorithm, String suffix, ThrottleOverride halfway) {
        send(Request.cmd(Command.SCRIPT).arg("FLUSH"));
        LuaScript.shiftClock(clock);
        Random random = new Random(36);
        for (int step = 0; step < BATCH_STEPS; step++) {
            if (step == BATCH_STEPS / 2) {
                throttler.override(policy, halfway);
            }
            advance(random, 5);
            int cost = 1 + random.nextInt(3);

            engine.singlePolicyScripts(false);
            List<String> general = together(policy, "batch-general", cost);
            engine.singlePolicyScripts(true);
            List<String> single = together(policy, "batch-single", cost);

            String at = "step " + step + " (cost " + cost + ")";
            assertThat(single).as(at).isEqualTo(general);
            assertThat(state(policy, "batch-single", suffix)).as(at).isEqualTo(state(policy, "batch-general", suffix));
        }
        Response loaded = send(Request.cmd(Command.SCRIPT).arg("EXISTS")
                .arg(ThrottleScripts.singlePolicyBatch(algorithm).toSend().sha1()));
        assertThat(loaded.get(0).toInteger()).as("single-policy batch script ran").isEqualTo(1);
    }

    /**
     * Moves the frozen clock: in {@code stillOfTen} steps out of ten not at all, else mostly within a third of the
     * window, now and then beyond it.
     */
    private void advance(Random random, int stillOfTen) {
        int pause = random.nextInt(10);
        clock.now += pause < stillOfTen ? 0
                : pause < 9 ? (long) (random.nextDouble() * WINDOW_MICROS / 3)
                        : WINDOW_MICROS + (long) (random.nextDouble() * WINDOW_MICROS);
    }

    /** {@link #CALLS_TOGETHER} reactive acquires subscribed at once; their decisions, sorted. */
    private List<String> together(String policy, String key, int cost) {
        List<Uni<ThrottleDecision>> calls = new ArrayList<>();
        for (int i = 0; i < CALLS_TOGETHER; i++) {
            calls.add(reactive.acquire(policy, key, cost));
        }
        List<ThrottleDecision> decisions = Uni.join().all(calls).andFailFast().await().atMost(Duration.ofSeconds(5));
        List<String> described = new ArrayList<>();
        for (ThrottleDecision decision : decisions) {
            described.add(decision.allowed() + " " + decision.limit() + " " + decision.remaining() + " "
                    + decision.retryAfter() + " " + decision.resetAfter());
        }
        Collections.sort(described);
        return described;
    }

    private ThrottleDecision acquire(boolean blocking, String policy, String key, int cost) {
        return blocking ? throttler.acquire(policy, key, cost)
                : reactive.acquire(policy, key, cost).await().atMost(Duration.ofSeconds(5));
    }

    /** The key's stored state: a token bucket's hash fields, or the scores of a sliding log's entries. */
    private List<String> state(String policy, String key, String suffix) {
        String redisKey = stateKey(policy, key, suffix);
        Response stored = suffix.equals(":tb")
                ? send(Request.cmd(Command.HMGET).arg(redisKey).arg("l").arg("t").arg("w"))
                : send(Request.cmd(Command.ZRANGE).arg(redisKey).arg(0).arg(-1).arg("WITHSCORES"));
        List<String> values = new ArrayList<>();
        for (int i = 0; i < stored.size(); i++) {
            Response value = stored.get(i);
            if (value != null && value.type() == ResponseType.MULTI) {
                // RESP3: one [member, score] pair per entry.
                values.add(value.get(1).toString());
            } else if (suffix.equals(":tb") || i % 2 == 1) {
                values.add(value == null ? null : value.toString());
            }
        }
        return values;
    }

    private long ttl(String policy, String key, String suffix) {
        return send(Request.cmd(Command.PTTL).arg(stateKey(policy, key, suffix))).toLong();
    }

    private static String stateKey(String policy, String key, String suffix) {
        return ThrottleKeyLayout.baseKey("pacer", policy, ThrottleKeyBuilder.ofProgrammatic(key), policy) + suffix;
    }

    private Response send(Request request) {
        return redis.send(request).await().atMost(Duration.ofSeconds(5));
    }

    /** Redis TIME stands still at {@link #now} in every script, whatever the wall clock does. */
    static final class FrozenClock implements ScriptClockShift {
        volatile long now = 1_900_000_000_000_000L;

        @Override
        public String prelude() {
            return "frozen-clock-for-test";
        }

        @Override
        public long offsetMicros() {
            return now;
        }
    }

    @ApplicationScoped
    public static class Api {
        static final String BUCKET = "single-policy-bucket";
        static final String LOG = "single-policy-log";

        @Throttled(name = BUCKET, limit = 5, window = "1h", burst = 8, algorithm = Algorithm.TOKEN_BUCKET)
        public void bucket() {
        }

        @Throttled(name = LOG, limit = 5, window = "1h", algorithm = Algorithm.SLIDING_LOG)
        public void log() {
        }
    }
}
