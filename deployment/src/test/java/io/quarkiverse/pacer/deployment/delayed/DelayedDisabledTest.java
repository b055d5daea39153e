package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus.pacer.delayed.enabled=false} no message is delivered on this instance; producers still store,
 * inspect and cancel messages.
 */
class DelayedDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Reminders.class))
            .overrideConfigKey("quarkus.pacer.delayed.enabled", "false")
            .overrideConfigKey("quarkus.pacer.delayed.poll-interval", "100ms");

    @Singleton
    static class Reminders {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Delayed("disabled-reminders")
        void remind(String payload) {
            received.add(payload);
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Reminders reminders;

    @Test
    void nothingIsDelivered() {
        queue.scheduleWithId("disabled-reminders", "r-1", "due now", Duration.ZERO);
        assertThat(queue.deliverNow("disabled-reminders", "r-1")).isTrue();
        // Twenty poll intervals: an enabled consumer would have delivered it many times over.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> reminders.received.isEmpty() && queue.size("disabled-reminders") == 1);
        assertThat(queue.cancel("disabled-reminders", "r-1")).isTrue();
        assertThat(queue.size("disabled-reminders")).isZero();
    }
}
