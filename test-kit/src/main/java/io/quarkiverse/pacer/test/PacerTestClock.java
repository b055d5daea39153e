package io.quarkiverse.pacer.test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkiverse.pacer.runtime.redis.LuaScript;
import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.runtime.redis.RedisTimeSleeper;
import io.quarkiverse.pacer.runtime.redis.ScriptClockShift;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleResets;
import io.quarkus.arc.Unremovable;

/**
 * Pacer's clock in tests: moves the time Pacer reads forward, so what waits for time happens at once. A delayed message
 * due in 30 minutes is delivered, a token bucket refills, a window starts over, a {@code CONCURRENCY} lease whose
 * holder stopped renewing it expires, and the ticks of {@code PACER} jobs and recurring schedules run, all within the
 * test's real time.
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
    /** The PACER scheduler and the recurring schedules' firer, whose timers run in real time. */
    private final Instance<RedisTimeSleeper> sleepers;
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

    @Inject
    PacerTestClock(PacerRedis redis, ThrottleResets resets, DelayedConsumers consumers,
            @Any Instance<RedisTimeSleeper> sleepers) {
        this.redis = redis;
        this.resets = resets;
        this.consumers = consumers;
        this.sleepers = sleepers;
        LuaScript.shiftClock(shift);
    }

    /**
     * Moves Pacer's time forward by {@code amount}. When this method returns, every Pacer decision and queue operation
     * sees the new time, cached rejections are forgotten, and:
     * <ul>
     * <li>every tick of a {@code PACER} job that the clock passed has been claimed by this application and its run has
     * started (ticks older than the job's {@code overdueGracePeriod} are skipped, as the scheduler skips missed ticks);
     * wait for the run's effect, e.g. with Awaitility;</li>
     * <li>every tick of a recurring schedule that the clock passed has been fired and its message stored in its delay
     * queue (older than the schedule's grace period: skipped);</li>
     * <li>this application's consumers of delay queues are claiming the messages that became due (wait for their
     * effect, e.g. with Awaitility, or call {@link PacerTestQueues#awaitIdle()}).</li>
     * </ul>
     * Call it from the test's thread: it blocks until the schedulers have caught up with the new time.
     *
     * @param amount how far to move, zero or more (microsecond precision)
     * @throws IllegalArgumentException if {@code amount} is negative
     * @throws AssertionError if the schedulers have not caught up within 10 seconds (Redis unreachable)
     */
    public void advance(Duration amount) {
        if (amount.isNegative()) {
            throw new IllegalArgumentException("The Pacer test clock only moves forward: " + amount);
        }
        offsetMicros.addAndGet(amount.getSeconds() * 1_000_000 + amount.getNano() / 1_000);
        // A rejection cached in this JVM waits in real time: Redis must decide again at the new time.
        resets.forgetLocalRejections();
        // Their timers run in real time: they read the moved time only when woken.
        awaitSleepers(RedisTimeSleeper::catchUp, "catch up with the clock moved by " + amount);
        consumers.pollNow();
    }

    /**
     * How far this clock is ahead of Redis time.
     *
     * @return the offset: {@link Duration#ZERO} unless {@link #advance(Duration)} moved the clock
     */
    public Duration offset() {
        long micros = offsetMicros.get();
        return Duration.ofSeconds(micros / 1_000_000, (micros % 1_000_000) * 1_000);
    }

    /**
     * Pacer's time now, as every Pacer script reads it (due times of waiting messages are in this time).
     *
     * @return Redis time plus the {@link #offset()}
     */
    public Instant now() {
        long micros = redis.eval(KitScripts.SERVER_TIME, List.of(), List.of()).await().atMost(KitScripts.TIMEOUT)
                .toLong();
        return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000);
    }

    /**
     * Puts the clock back to Redis time. State Pacer wrote at a later time (windows, leases, due times) then lies in the
     * future: clear it too ({@link PacerResetExtension} does both). The schedules start over from Redis time: a
     * {@code PACER} job or a recurring schedule (not paused) whose next tick the moved clock had pushed further ahead
     * than one tick from now is due next at its first tick from now.
     *
     * @throws AssertionError if the schedules have not started over within 10 seconds (Redis unreachable)
     */
    public void reset() {
        offsetMicros.set(0);
        resets.forgetLocalRejections();
        awaitSleepers(RedisTimeSleeper::startOver, "start the schedules over after the clock was reset");
    }

    private void awaitSleepers(Function<RedisTimeSleeper, CompletionStage<Void>> step, String what) {
        CompletableFuture<?>[] steps = sleepers.stream().map(step).map(CompletionStage::toCompletableFuture)
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(steps).get(KitScripts.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("Pacer's schedulers did not " + what + " within " + KitScripts.TIMEOUT
                    + " (is Redis reachable?)", e);
        } catch (ExecutionException e) {
            throw new AssertionError("Pacer's schedulers could not " + what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while Pacer's schedulers " + what, e);
        }
    }

    @PreDestroy
    void uninstall() {
        LuaScript.shiftClock(null);
    }
}
