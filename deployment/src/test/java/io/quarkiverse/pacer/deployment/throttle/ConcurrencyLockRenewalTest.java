package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottlePermit;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * CONCURRENCY as a distributed lock: a call running three windows long keeps its permit (its lease is renewed), a
 * second caller is rejected all along; the permit is free as soon as the call ends, or its Uni is cancelled; a holder
 * that stopped renewing (a crashed instance) frees the permit within one window.
 * <p>
 * The window is long (4 s) so that a busy machine neither delays a renewal past its lease nor makes a release look like
 * an expiry: "at once" is "within half a window", and a crashed holder's lease is bounded by Redis's own answer (its
 * retry-after), not by a wall-clock measurement.
 */
class ConcurrencyLockRenewalTest {

    static final String LOCK = "renewed-lock";
    static final Duration WINDOW = Duration.ofSeconds(4);

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"crash-lock\".limit", "1")
            .overrideConfigKey("quarkus.pacer.throttle.\"crash-lock\".window", "1s")
            .overrideConfigKey("quarkus.pacer.throttle.\"crash-lock\".algorithm", "concurrency");

    @Singleton
    static class Api {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch leave = new CountDownLatch(1);

        @Throttled(name = LOCK, limit = 1, window = "4s", algorithm = Algorithm.CONCURRENCY)
        public String hold() throws InterruptedException {
            entered.countDown();
            assertThat(leave.await(30, TimeUnit.SECONDS)).isTrue();
            return "done";
        }

        @Throttled(name = "never-lock", limit = 1, window = "4s", algorithm = Algorithm.CONCURRENCY)
        public Uni<String> never() {
            return Uni.createFrom().emitter(emitter -> {
            });
        }
    }

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Test
    void longCallKeepsItsPermitAndReleasesItAtTheEnd() throws Exception {
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
            try {
                return api.hold();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(api.entered.await(10, TimeUnit.SECONDS)).isTrue();
        long started = System.nanoTime();
        // Three windows long: without renewal the lease would have expired twice over.
        await().during(WINDOW.multipliedBy(3)).atMost(WINDOW.multipliedBy(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !throttler.peek(LOCK, null).allowed());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThan(WINDOW.multipliedBy(3));
        assertThatThrownBy(() -> throttler.acquirePermit(LOCK, null)).isInstanceOf(ThrottledException.class);

        api.leave.countDown();
        assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        // Released at once, not at lease expiry (the renewals would have pushed that far out).
        await().atMost(WINDOW.dividedBy(2)).until(() -> throttler.peek(LOCK, null).allowed());
        try (ThrottlePermit permit = throttler.acquirePermit(LOCK, null)) {
            assertThat(permit.isHeld()).isTrue();
        }
    }

    @Test
    void cancelledUniReleasesItsPermit() {
        Cancellable subscription = api.never().subscribe().with(item -> {
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> !throttler.peek("never-lock", null).allowed());
        subscription.cancel();
        await().atMost(WINDOW.dividedBy(2)).until(() -> throttler.peek("never-lock", null).allowed());
    }

    @Test
    void crashedHolderFreesThePermitWithinOneWindow() {
        // acquire() takes a lease nobody renews or releases: exactly what a crashed instance leaves behind.
        assertThat(throttler.acquire("crash-lock", "k").allowed()).isTrue();
        // Redis says when the lease ends: within one window of the acquisition, by its own clock.
        assertThatThrownBy(() -> throttler.acquirePermit("crash-lock", "k"))
                .isInstanceOfSatisfying(ThrottledException.class,
                        e -> assertThat(e.retryAfter()).isBetween(Duration.ofMillis(1), Duration.ofSeconds(1)));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(25))
                .until(() -> throttler.peek("crash-lock", "k").allowed());
        try (ThrottlePermit permit = throttler.acquirePermit("crash-lock", "k")) {
            assertThat(permit.fencingToken()).isPositive();
        }
    }

    /** With the default 250 ms budget: every decision was made by Redis, none by the fallback. */
    @AfterEach
    void everyDecisionCameFromRedis() {
        assertThat(Arc.container().instance(ThrottleEngine.class).get().fallbackDecisions()).as("fallback decisions")
                .isZero();
    }
}
