package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A {@code Uni} method called on an event-loop thread: nothing happens until subscription, the decision never blocks
 * the event loop (the subscribe call returns before the outcome, which arrives on the event loop), and the rejection
 * is delivered as a failure of the Uni.
 */
class ThrottledUniMethodTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    Vertx vertx;

    @Test
    void decidedAtSubscriptionWithoutBlockingTheEventLoop() {
        List<String> events = new CopyOnWriteArrayList<>();
        Uni<String> notSubscribed = api.hello();
        assertThat(api.bodies()).isZero();

        vertx.runOnContext(ignored -> {
            for (int i = 0; i < 3; i++) {
                events.add("subscribe on event loop " + Context.isOnEventLoopThread());
                api.hello().subscribe().with(
                        item -> events.add("item " + item + " on event loop " + Context.isOnEventLoopThread()),
                        failure -> events.add(failure.getClass().getSimpleName() + " on event loop "
                                + Context.isOnEventLoopThread()));
                events.add("subscribe returned");
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 9);
        assertThat(events.subList(0, 6)).containsExactly(
                "subscribe on event loop true", "subscribe returned",
                "subscribe on event loop true", "subscribe returned",
                "subscribe on event loop true", "subscribe returned");
        assertThat(events.subList(6, 9)).containsExactly(
                "item body on event loop true on event loop true",
                "item body on event loop true on event loop true",
                "ThrottledException on event loop true");
        assertThat(api.bodies()).isEqualTo(2);
        assertThat(notSubscribed).isNotNull();
    }

    @ApplicationScoped
    public static class Api {
        private int bodies;

        @Throttled(limit = 2, window = "1h")
        public Uni<String> hello() {
            return Uni.createFrom().item(() -> {
                bodies++;
                return "body on event loop " + Context.isOnEventLoopThread();
            });
        }

        int bodies() {
            return bodies;
        }
    }
}
