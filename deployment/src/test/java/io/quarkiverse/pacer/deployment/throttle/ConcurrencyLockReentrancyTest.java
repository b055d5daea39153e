package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

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
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * A CONCURRENCY policy with limit 1 is reentrant: a call holding its permit calls another method of the same policy
 * (blocking, then through a Uni chain) and takes a programmatic permit of it without deadlocking on itself, while an
 * outside caller stays rejected. {@code reentrant=false} turns it off: the nested call is rejected.
 */
class ConcurrencyLockReentrancyTest {

    static final String LOCK = "reentrant-lock";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Outer.class, Inner.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"strict-lock\".reentrant", "false");

    @ApplicationScoped
    static class Outer {
        @Inject
        Inner inner;

        @Inject
        Throttler throttler;

        @Throttled(name = LOCK, limit = 1, window = "5s", algorithm = Algorithm.CONCURRENCY)
        public String blocking() {
            boolean outsiderRejected = !throttler.peek(LOCK, null).allowed();
            String nested = inner.blocking();
            try (ThrottlePermit permit = throttler.acquirePermit(LOCK, null)) {
                return nested + "+" + (permit.isHeld() && permit.fencingToken() > 0) + "+" + outsiderRejected;
            }
        }

        @Throttled(name = LOCK, limit = 1, window = "5s", algorithm = Algorithm.CONCURRENCY)
        public Uni<String> reactive() {
            return Uni.createFrom().item("outer").chain(outer -> inner.reactive().map(nested -> outer + "+" + nested));
        }

        @Throttled(name = "strict-lock", limit = 1, window = "5s", algorithm = Algorithm.CONCURRENCY)
        public String strict() {
            return inner.strict();
        }
    }

    @ApplicationScoped
    static class Inner {
        @Throttled(name = LOCK, limit = 1, window = "5s", algorithm = Algorithm.CONCURRENCY)
        public String blocking() {
            return "inner";
        }

        @Throttled(name = LOCK, limit = 1, window = "5s", algorithm = Algorithm.CONCURRENCY)
        public Uni<String> reactive() {
            return Uni.createFrom().item("inner");
        }

        @Throttled(name = "strict-lock", limit = 1, window = "5s", algorithm = Algorithm.CONCURRENCY)
        public String strict() {
            return "inner";
        }
    }

    @Inject
    Outer outer;

    @Inject
    Throttler throttler;

    @Inject
    Vertx vertx;

    @Test
    void nestedCallsOfAHeldLockDoNotDeadlock() {
        assertThat(outer.blocking()).isEqualTo("inner+true+true");
        await().atMost(Duration.ofSeconds(2)).until(() -> throttler.peek(LOCK, null).allowed());

        // A reactive call chain is one Vert.x duplicated context, as for an HTTP request or a @Delayed message.
        CompletableFuture<String> reactive = new CompletableFuture<>();
        VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext()).runOnContext(
                v -> outer.reactive().subscribe().with(reactive::complete, reactive::completeExceptionally));
        assertThat(reactive.join()).isEqualTo("outer+inner");
        await().atMost(Duration.ofSeconds(2)).until(() -> throttler.peek(LOCK, null).allowed());

        // A permit held by this thread is reentrant too, and an outer permit is not released by a nested one.
        try (ThrottlePermit held = throttler.acquirePermit(LOCK, null)) {
            assertThat(outer.blocking()).isEqualTo("inner+true+true");
            assertThat(held.isHeld()).isTrue();
            assertThat(throttler.peek(LOCK, null).allowed()).isFalse();
        }
        await().atMost(Duration.ofSeconds(2)).until(() -> throttler.peek(LOCK, null).allowed());
    }

    @Test
    void reentrancyCanBeTurnedOff() {
        assertThatThrownBy(outer::strict).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().policy()).isEqualTo("strict-lock"));
    }

    /** With the default 250 ms budget: every decision was made by Redis, none by the fallback. */
    @AfterEach
    void everyDecisionCameFromRedis() {
        assertThat(Arc.container().instance(ThrottleEngine.class).get().fallbackDecisions()).as("fallback decisions")
                .isZero();
    }
}
