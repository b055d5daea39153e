package io.quarkiverse.pacer.test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.ScriptClockShift;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleResets;
import io.quarkus.arc.Unremovable;

/**
 * Pacer's clock in tests: moves the time Pacer reads forward, so what waits for time happens at once. A delayed message
 * due in 30 minutes is delivered, a token bucket refills, a window starts over and a {@code CONCURRENCY} lease whose
 * holder stopped renewing it expires, all within the test's real time.
 *
 * <pre>
 * {@code
 * &#64;Inject
 * PacerTestClock clock;
 *
 * @Test
 * void unpaidOrderExpires() {
 *     orders.place(42); // schedules "order-timeout" in 30 minutes
 *     clock.advance(Duration.ofMinutes(30));
 *     await().atMost(Duration.ofSeconds(1)).until(() -> orders.isExpired(42));
 * }
 * }
 * </pre>
 * <p>
 * Pacer takes all of its time from Redis ({@code TIME} inside its scripts). While this bean exists, every Pacer script
 * reads Redis time plus the offset this clock holds; the offset travels with each script call, so it works the same on
 * a single Redis, Sentinel and Redis Cluster. Only this application's Pacer sees the moved time: Redis itself, key
 * expiry ({@code TTL}) and other applications on the same Redis do not. The clock only moves forward; {@link #reset()}
 * puts it back, which {@link PacerResetExtension} does before each test together with clearing Pacer's state.
 * <p>
 * An {@link Instant} passed to {@code schedule} is compared with the moved time: after {@code advance(ofHours(1))},
 * a message scheduled at {@code Instant.now().plusSeconds(60)} is already due.
 */
@Singleton
@Unremovable
public class PacerTestClock {

    private final AtomicLong offsetMicros = new AtomicLong();
    private final PacerRedis redis;
    private final ThrottleResets resets;
    private final DelayedConsumers consumers;
    private final ScriptClockShift shift = new ScriptClockShift() {
        @Override
        public String prelude() {
            return "test-clock";
        }

        @Override
        public long offsetMicros() {
            return offsetMicros.get();
        }
    };

    /** Created by CDI; inject the bean instead. */
    @Inject
    public PacerTestClock(PacerRedis redis, ThrottleResets resets, DelayedConsumers consumers) {
        this.redis = redis;
        this.resets = resets;
        this.consumers = consumers;
        LuaScript.shiftClock(shift);
    }

    /**
     * Moves Pacer's time forward by {@code amount}. When this method returns, every Pacer decision and queue operation
     * sees the new time, cached rejections are forgotten, and this application's consumers of delay queues are
     * claiming the messages that became due (wait for their effect, e.g. with Awaitility, or call
     * {@link PacerTestQueues#awaitIdle()}).
     *
     * @param amount how far to move, zero or more (microsecond precision)
     * @throws IllegalArgumentException if {@code amount} is negative
     */
    public void advance(Duration amount) {
        if (amount.isNegative()) {
            throw new IllegalArgumentException("The Pacer test clock only moves forward: " + amount);
        }
        offsetMicros.addAndGet(amount.getSeconds() * 1_000_000 + amount.getNano() / 1_000);
        // A rejection cached in this JVM waits in real time: Redis must decide again at the new time.
        resets.forgetLocalRejections();
        consumers.pollNow();
    }

    /** How far this clock is ahead of Redis time: {@link Duration#ZERO} unless {@link #advance(Duration)} moved it. */
    public Duration offset() {
        long micros = offsetMicros.get();
        return Duration.ofSeconds(micros / 1_000_000, (micros % 1_000_000) * 1_000);
    }

    /**
     * Pacer's time now: Redis time plus the {@link #offset()}, as every Pacer script reads it (due times of waiting
     * messages are in this time).
     */
    public Instant now() {
        long micros = redis.eval(KitScripts.SERVER_TIME, List.of(), List.of()).await().atMost(KitScripts.TIMEOUT)
                .toLong();
        return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000);
    }

    /**
     * Puts the clock back to Redis time. State Pacer wrote at a later time (windows, leases, due times) then lies in the
     * future: clear it too ({@link PacerResetExtension} does both).
     */
    public void reset() {
        offsetMicros.set(0);
        resets.forgetLocalRejections();
    }

    @PreDestroy
    void uninstall() {
        LuaScript.shiftClock(null);
    }
}
