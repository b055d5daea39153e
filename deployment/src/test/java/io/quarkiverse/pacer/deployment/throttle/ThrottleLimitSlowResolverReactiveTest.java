package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A {@code Uni} method whose resolver blocks (it waits on a latch the test opens): subscribed on the event loop, the
 * resolver runs on a worker thread, the event loop keeps running other tasks meanwhile, and the method body runs back
 * on the event loop; callers of the same key share the one resolution, and the key's limit (2) is exact.
 */
class ThrottleLimitSlowResolverReactiveTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, SlowPlans.class));

    @Inject
    Api api;

    @Inject
    SlowPlans plans;

    @Inject
    Vertx vertx;

    @Test
    void slowResolverNeverBlocksTheEventLoop() throws Exception {
        List<String> results = new CopyOnWriteArrayList<>();
        Context context = vertx.getOrCreateContext();
        context.runOnContext(ignored -> {
            for (int i = 0; i < 4; i++) {
                api.call("tenant").subscribe().with(results::add,
                        failure -> results.add(failure instanceof ThrottledException ? "rejected" : failure.toString()));
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> plans.threads.size() == 1);
        // The resolver is blocked now: the event loop still runs a task.
        CountDownLatch ran = new CountDownLatch(1);
        context.runOnContext(ignored -> ran.countDown());
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(results).isEmpty();

        plans.release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> results.size() == 4);
        assertThat(plans.threads).singleElement().asString().doesNotContain("eventloop");
        assertThat(results).containsExactlyInAnyOrder("body on event loop true", "body on event loop true", "rejected",
                "rejected");
    }

    @Singleton
    public static class SlowPlans implements ThrottleLimitResolver {
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> threads = new CopyOnWriteArrayList<>();

        @Override
        public ThrottleLimit resolve(String policy, String key) {
            threads.add(Thread.currentThread().getName());
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ThrottleLimit.of(2);
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "slow-plans", limit = 100, window = "1h", limits = SlowPlans.class)
        public Uni<String> call(@ThrottleKey String key) {
            return Uni.createFrom().item(() -> "body on event loop " + Context.isOnEventLoopThread());
        }
    }
}
