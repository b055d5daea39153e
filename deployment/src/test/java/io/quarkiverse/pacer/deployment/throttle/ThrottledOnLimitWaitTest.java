package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.OnLimit;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * {@code onLimit = WAIT}: a call whose retry-after is within {@code maxWait} waits (a sleep on a worker thread, a
 * timer for {@code Uni}, never blocking the event loop) and then passes; beyond {@code maxWait} it is rejected at once.
 */
class ThrottledOnLimitWaitTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    Vertx vertx;

    @Test
    void waitsWithinMaxWaitAndRejectsBeyond() {
        assertThat(api.patient()).isEqualTo("ok");
        assertThat(api.patient()).isEqualTo("ok");

        api.impatient();
        assertThatThrownBy(api::impatient).isInstanceOf(ThrottledException.class);

        List<String> events = new CopyOnWriteArrayList<>();
        vertx.runOnContext(ignored -> {
            for (int i = 0; i < 2; i++) {
                api.patientUni().subscribe().with(item -> events.add(item + " " + Context.isOnEventLoopThread()),
                        failure -> events.add(failure.toString()));
            }
            events.add("returned");
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 3);
        assertThat(events).containsExactly("returned", "ok true", "ok true");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "patient", limit = 2, window = "1s", burst = 1, onLimit = OnLimit.WAIT, maxWait = "5s")
        public String patient() {
            return "ok";
        }

        @Throttled(name = "impatient", limit = 1, window = "1h", onLimit = OnLimit.WAIT, maxWait = "100ms")
        public void impatient() {
        }

        @Throttled(name = "patient-uni", limit = 2, window = "1s", burst = 1, onLimit = OnLimit.WAIT, maxWait = "5s")
        public Uni<String> patientUni() {
            return Uni.createFrom().item("ok");
        }
    }
}
