package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A {@code CompletionStage} method called on an event-loop thread returns at once; the rejection completes the stage
 * exceptionally with {@link ThrottledException}, on the event loop, which was never blocked.
 */
class ThrottledCompletionStageMethodTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    Vertx vertx;

    @Test
    void rejectionCompletesTheStageExceptionally() {
        List<String> events = new CopyOnWriteArrayList<>();
        vertx.runOnContext(ignored -> {
            for (int i = 0; i < 2; i++) {
                api.greet().whenComplete((item, failure) -> events.add(
                        (failure == null ? "item " + item : unwrap(failure).getClass().getSimpleName())
                                + " on event loop " + Context.isOnEventLoopThread()));
                events.add("returned");
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 4);
        assertThat(events).containsExactly("returned", "returned", "item hi on event loop true",
                "ThrottledException on event loop true");
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(limit = 1, window = "1h")
        public CompletionStage<String> greet() {
            return CompletableFuture.completedFuture("hi");
        }
    }
}
