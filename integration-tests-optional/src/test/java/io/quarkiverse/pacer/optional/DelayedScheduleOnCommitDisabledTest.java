package io.quarkiverse.pacer.optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;

/** {@code quarkus.pacer.delayed.transactional=false}: schedule acts at once inside a transaction, even one rolled back. */
class DelayedScheduleOnCommitDisabledTest {

    static final String QUEUE = "not-on-commit";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class))
            .overrideConfigKey("quarkus.pacer.delayed.transactional", "false");

    @ApplicationScoped
    static class Orders {
        @Inject
        DelayedQueue queue;

        @Transactional
        public void placeAndFail(String order) {
            queue.scheduleWithId(QUEUE, order, "payload", Duration.ofHours(1));
            assertThat(queue.size(QUEUE)).isEqualTo(1);
            throw new IllegalStateException("payment refused");
        }
    }

    @Inject
    Orders orders;

    @Inject
    DelayedQueue queue;

    @Test
    void actsAtOnce() {
        assertThatThrownBy(() -> orders.placeAndFail("o-1")).hasMessage("payment refused");
        assertThat(queue.size(QUEUE)).isEqualTo(1);
        assertThat(queue.cancel(QUEUE, "o-1")).isTrue();
    }
}
