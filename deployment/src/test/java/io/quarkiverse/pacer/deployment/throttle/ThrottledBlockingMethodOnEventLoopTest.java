package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;

/**
 * A blocking {@code @Throttled} method called on an event-loop thread fails at once with a clear error instead of
 * blocking the event loop while Redis decides.
 */
class ThrottledBlockingMethodOnEventLoopTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    Vertx vertx;

    @Test
    void failsInsteadOfBlocking() throws Exception {
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        vertx.runOnContext(ignored -> {
            try {
                api.ping();
                failure.complete(null);
            } catch (Throwable e) {
                failure.complete(e);
            }
        });
        assertThat(failure.get(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@Throttled method " + Api.class.getName() + "#ping()")
                .hasMessageContaining("event-loop thread");
        assertThat(api.calls()).isZero();
    }

    @ApplicationScoped
    public static class Api {
        private int calls;

        @Throttled(limit = 5, window = "1s")
        public String ping() {
            calls++;
            return "pong";
        }

        int calls() {
            return calls;
        }
    }
}
