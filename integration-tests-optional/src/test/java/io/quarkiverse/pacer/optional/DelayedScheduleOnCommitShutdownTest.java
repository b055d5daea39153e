package io.quarkiverse.pacer.optional;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.logging.Level;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.runtime.delay.integration.AfterCommitSender;
import io.quarkiverse.pacer.test.support.LogCapture;
import io.quarkiverse.pacer.test.support.RestartableRedis;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A graceful shutdown while committed operations still wait for Redis: it waits for them up to
 * {@code shutdown-timeout}, then drops each one with an ERROR naming its queue and id.
 */
class DelayedScheduleOnCommitShutdownTest {

    static final String QUEUE = "on-commit-shutdown";
    static final RestartableRedis REDIS = RestartableRedis.shared("on-commit-shutdown");

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class, RestartableRedis.class, LogCapture.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.pacer.delayed.shutdown-timeout", "2s");

    @ApplicationScoped
    static class Orders {
        @Inject
        DelayedQueue queue;

        @Transactional
        public void place(String order) {
            queue.scheduleWithId(QUEUE, order, order, Duration.ofHours(1));
        }
    }

    @Inject
    Orders orders;

    @Inject
    AfterCommitSender afterCommit;

    @Inject
    Event<ShutdownEvent> shutdown;

    @Test
    void waitsForPendingOperationsThenLogsEachDroppedOne() throws Exception {
        REDIS.stop();
        orders.place("s-1");
        orders.place("s-2");
        assertThat(afterCommit.pending()).isEqualTo(2);

        try (LogCapture errors = LogCapture.of(AfterCommitSender.class, Level.SEVERE)) {
            long started = System.nanoTime();
            shutdown.fire(new ShutdownEvent());
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited for the shutdown timeout")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
            assertThat(afterCommit.pending()).isZero();
            assertThat(errors.messages()).containsExactlyInAnyOrder(
                    "Scheduling message s-1 on delay queue " + QUEUE + " after the transaction committed is dropped at"
                            + " shutdown: Redis did not take it within PT2S (quarkus.pacer.delayed.shutdown-timeout)",
                    "Scheduling message s-2 on delay queue " + QUEUE + " after the transaction committed is dropped at"
                            + " shutdown: Redis did not take it within PT2S (quarkus.pacer.delayed.shutdown-timeout)");
        } finally {
            REDIS.start();
        }
    }
}
