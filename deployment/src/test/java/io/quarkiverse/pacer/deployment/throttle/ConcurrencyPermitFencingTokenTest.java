package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ReactiveThrottler;
import io.quarkiverse.pacer.throttle.ThrottlePermit;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Programmatic permits of a CONCURRENCY policy: held until closed (a second one is rejected meanwhile), with fencing
 * tokens that strictly increase across permits, keys' expiry and resets; the reactive {@code withPermit} releases
 * when its work completes or fails. Other algorithms hand out no permits.
 */
class ConcurrencyPermitFencingTokenTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @ApplicationScoped
    static class Api {
        @Throttled(name = "fenced", limit = 1, window = "2s", algorithm = Algorithm.CONCURRENCY)
        public void fenced() {
        }

        @Throttled(name = "bucket", limit = 5)
        public void bucket() {
        }
    }

    @Inject
    Throttler throttler;

    @Inject
    ReactiveThrottler reactive;

    @Test
    void fencingTokensIncrease() {
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            try (ThrottlePermit permit = throttler.acquirePermit("fenced", "account-1")) {
                assertThat(permit.isHeld()).isTrue();
                assertThat(permit.decision().allowed()).isTrue();
                assertThat(permit.decision().policy()).isEqualTo("fenced");
                tokens.add(permit.fencingToken());
                // Another thread (this one holds the permit, and limit-1 policies are reentrant).
                assertThat(CompletableFuture.supplyAsync(() -> rejected(() -> throttler.acquirePermit("fenced", "account-1")))
                        .join()).isInstanceOf(ThrottledException.class);
                if (i == 2) {
                    throttler.reset("fenced", "account-1"); // the state is gone: tokens must still increase
                }
            }
        }
        ThrottlePermit closed = throttler.acquirePermit("fenced", "account-1");
        closed.close();
        closed.close();
        assertThat(closed.isHeld()).isFalse();
        tokens.add(closed.fencingToken());
        assertThat(tokens).isSorted().doesNotHaveDuplicates().allMatch(token -> token > 0);

        Long last = reactive.withPermit("fenced", "account-1", permit -> Uni.createFrom().item(permit.fencingToken()))
                .await().atMost(Duration.ofSeconds(10));
        assertThat(last).isGreaterThan(tokens.get(tokens.size() - 1));
        assertThatThrownBy(() -> reactive.withPermit("fenced", "account-1",
                permit -> Uni.createFrom().failure(new IllegalStateException("boom"))).await().atMost(Duration.ofSeconds(10)))
                .hasMessage("boom");
        // Both released: a blocking permit is available right away.
        try (ThrottlePermit permit = throttler.acquirePermit("fenced", "account-1")) {
            assertThat(permit.fencingToken()).isGreaterThan(last);
        }
    }

    @Test
    void onlyConcurrencyPoliciesHandOutPermits() {
        assertThatThrownBy(() -> throttler.acquirePermit("bucket", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"bucket\" uses TOKEN_BUCKET: only CONCURRENCY policies hand out permits");
    }

    /** The exception of a call expected to fail, or {@code null}. */
    static Throwable rejected(Runnable call) {
        try {
            call.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** With the default 250 ms budget: every decision was made by Redis, none by the fallback. */
    @AfterEach
    void everyDecisionCameFromRedis() {
        assertThat(Arc.container().instance(ThrottleEngine.class).get().fallbackDecisions()).as("fallback decisions")
                .isZero();
    }
}
