package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.deployment.support.SecondInstance;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.runtime.throttle.policy.ThrottleKeyLayout;
import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * The local short-circuit of rejected keys: a key Redis rejected is rejected without a round trip, with the same
 * decision data, until its retry-after; never for a smaller cost, never for {@code CONCURRENCY}; a reset on another
 * instance reaches this one over pub/sub; an instance with a higher limit on the same policy is not held back by it.
 */
class ThrottleLocalRejectionsTest {

    private static final String CHANNEL = "pacer:throttle-resets";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RedisInfo.class, SecondInstance.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"daily\".limit", "10")
            .overrideConfigKey("quarkus.pacer.throttle.\"daily\".window", "1d")
            .overrideConfigKey("quarkus.pacer.throttle.\"daily\".algorithm", "fixed-window")
            .overrideConfigKey("quarkus.pacer.throttle.\"bucket\".limit", "2")
            .overrideConfigKey("quarkus.pacer.throttle.\"bucket\".window", "1h")
            .overrideConfigKey("quarkus.pacer.throttle.\"in-flight\".limit", "1")
            .overrideConfigKey("quarkus.pacer.throttle.\"in-flight\".window", "1h")
            .overrideConfigKey("quarkus.pacer.throttle.\"in-flight\".algorithm", "concurrency");

    @Inject
    Throttler throttler;

    @Inject
    PacerRedis redis;

    @Inject
    ThrottleEngine engine;

    @Inject
    Vertx vertx;

    @Test
    void rejectedKeyIsRejectedLocallyWithTheSameDecision() {
        assertThat(throttler.acquire("bucket", "same", 2).allowed()).isTrue();
        ThrottleDecision fromRedis = throttler.acquire("bucket", "same");
        assertThat(fromRedis.allowed()).isFalse();
        awaitShortCircuit("bucket", "same", 1);

        long before = evalShas();
        ThrottleDecision local = throttler.acquire("bucket", "same");
        assertThat(evalShas()).isEqualTo(before);
        assertThat(local.allowed()).isFalse();
        assertThat(local.policy()).isEqualTo("bucket");
        assertThat(local.key()).isEqualTo(fromRedis.key());
        assertThat(local.limit()).isEqualTo(2);
        assertThat(local.remaining()).isZero();
        // Counted down from Redis's answer: never more than Redis said, and still ahead.
        assertThat(local.retryAfter()).isPositive().isLessThanOrEqualTo(fromRedis.retryAfter());
        // A larger cost reuses the rejection.
        assertThat(throttler.acquire("bucket", "same", 2).allowed()).isFalse();
        assertThat(evalShas()).isEqualTo(before);
        // Another key is not affected.
        assertThat(throttler.acquire("bucket", "other").allowed()).isTrue();
    }

    @Test
    void smallerCostAsksRedisLargerCostReusesTheRejection() {
        assertThat(throttler.acquire("daily", "cost", 7).allowed()).isTrue();
        awaitShortCircuit("daily", "cost", 4);

        long before = evalShas();
        // 3 still fit: a smaller cost than the cached rejection (4) must ask Redis, which admits it.
        ThrottleDecision smaller = throttler.acquire("daily", "cost", 3);
        assertThat(smaller.allowed()).isTrue();
        assertThat(smaller.remaining()).isZero();
        assertThat(evalShas()).isEqualTo(before + 1);
        // 5 >= 4: rejected locally.
        assertThat(throttler.acquire("daily", "cost", 5).allowed()).isFalse();
        assertThat(evalShas()).isEqualTo(before + 1);
        assertThat(peekRemaining("daily", "cost")).isZero();
    }

    @Test
    void resetOnAnotherInstanceClearsTheLocalRejection() {
        try (SecondInstance second = secondInstance()) {
            String base = ThrottleKeyLayout.baseKey("pacer", "daily", "reset", "daily");
            for (int i = 0; i < 10; i++) {
                assertThat(throttler.acquire("daily", "reset").allowed()).isTrue();
            }
            awaitShortCircuit("daily", "reset", 1);

            // The other instance's reset: the script's reset mode, then the documented message on the channel.
            second.eval(List.of(base), "3", "-", 1, 10, Duration.ofDays(1), 10, 1);
            second.send(Request.cmd(Command.PUBLISH).arg(CHANNEL).arg("r5:dailyreset"));

            await().atMost(Duration.ofSeconds(10)).until(() -> throttler.acquire("daily", "reset").allowed());
            // Exactly one permit was taken after the reset (the call that was admitted).
            assertThat(peekRemaining("daily", "reset")).isEqualTo(9);
        }
    }

    @Test
    void resetHereClearsTheLocalRejectionAtOnce() {
        for (int i = 0; i < 10; i++) {
            assertThat(throttler.acquire("daily", "here").allowed()).isTrue();
        }
        awaitShortCircuit("daily", "here", 1);
        throttler.reset("daily", "here");
        long before = evalShas();
        assertThat(throttler.acquire("daily", "here").allowed()).isTrue();
        assertThat(evalShas()).isEqualTo(before + 1);
    }

    @Test
    void anInstanceWithAHigherLimitIsNotHeldBackAndThisOneNeverAdmitsBeyondItsLimit() {
        try (SecondInstance second = secondInstance()) {
            String base = ThrottleKeyLayout.baseKey("pacer", "daily", "mixed", "daily");
            for (int i = 0; i < 10; i++) {
                assertThat(throttler.acquire("daily", "mixed").allowed()).isTrue();
            }
            awaitShortCircuit("daily", "mixed", 1);
            // The other instance runs "daily" with limit 15: Redis admits its calls up to 15 in all.
            int admittedThere = 0;
            for (int i = 0; i < 8; i++) {
                admittedThere += second.acquire(base, 1, 15, Duration.ofDays(1), 15, 1) ? 1 : 0;
            }
            assertThat(admittedThere).isEqualTo(5);
            // This instance (limit 10) still rejects, locally, and with its own limit.
            long before = evalShas();
            ThrottleDecision here = throttler.acquire("daily", "mixed");
            assertThat(here.allowed()).isFalse();
            assertThat(here.limit()).isEqualTo(10);
            assertThat(evalShas()).isEqualTo(before);
        }
    }

    @Test
    void concurrencyRejectionsAlwaysAskRedis() {
        try (SecondInstance second = secondInstance()) {
            String base = ThrottleKeyLayout.baseKey("pacer", "in-flight", "busy", "in-flight");
            assertThat(second.eval(List.of(base), "0", "holder", 6, 1, Duration.ofHours(1), 1, 1).get(0).toInteger())
                    .isEqualTo(1);
            for (int i = 0; i < 3; i++) {
                long before = evalShas();
                assertThat(throttler.acquire("in-flight", "busy").allowed()).isFalse();
                assertThat(evalShas()).isEqualTo(before + 1);
            }
            // The permit comes back: the very next call gets it.
            second.eval(List.of(base), "2", "holder", 6, 1, Duration.ofHours(1), 1, 1);
            assertThat(throttler.acquire("in-flight", "busy").allowed()).isTrue();
        }
    }

    /**
     * Rejects a call of {@code cost} through Redis until the next one is answered locally: the short-circuit only
     * starts once this instance is subscribed to resets.
     */
    private void awaitShortCircuit(String policy, String key, int cost) {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            assertThat(throttler.acquire(policy, key, cost).allowed()).isFalse();
            long before = evalShas();
            assertThat(throttler.acquire(policy, key, cost).allowed()).isFalse();
            return evalShas() == before;
        });
    }

    private int peekRemaining(String policy, String key) {
        return (int) throttler.peek(policy, key).remaining();
    }

    private long evalShas() {
        return RedisInfo.calls(redis, "evalsha");
    }

    private SecondInstance secondInstance() {
        return new SecondInstance(vertx, RedisInfo.tcpPort(redis), engine.script());
    }
}
