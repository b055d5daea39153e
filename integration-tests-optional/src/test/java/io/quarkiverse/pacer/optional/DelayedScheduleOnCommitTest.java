package io.quarkiverse.pacer.optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus-narayana-jta} present, {@code schedule} and {@code cancel} inside a transaction reach Redis only
 * after it commits, never after a rollback; outside a transaction they act at once. A datasource-free
 * {@code @Transactional} bean drives real JTA transactions.
 */
class DelayedScheduleOnCommitTest {

    static final String QUEUE = "on-commit";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class));

    @ApplicationScoped
    static class Orders {
        @Inject
        DelayedQueue queue;

        /** Schedules, then checks that nothing reached Redis before the commit. */
        @Transactional
        public String placeAndCommit(String order) {
            String id = queue.scheduleWithId(QUEUE, order, "payload", Duration.ofHours(1));
            assertThat(queue.size(QUEUE)).isZero();
            return id + "/" + queue.size(QUEUE);
        }

        @Transactional
        public void placeAndFail(String order) {
            queue.scheduleWithId(QUEUE, order, "payload", Duration.ofHours(1));
            throw new IllegalStateException("payment refused");
        }

        @Transactional
        public boolean cancelAndCommit(String order) {
            boolean registered = queue.cancel(QUEUE, order);
            assertThat(queue.size(QUEUE)).isEqualTo(1);
            return registered;
        }

        @Transactional
        public void cancelAndFail(String order) {
            queue.cancel(QUEUE, order);
            throw new IllegalStateException("rolled back");
        }

        @Transactional
        public String scheduleGeneratedId() {
            return queue.schedule(QUEUE, "payload", Duration.ofHours(1));
        }
    }

    @Inject
    Orders orders;

    @Inject
    DelayedQueue queue;

    @Test
    void actsOnCommitOnlyAndAtOnceOutsideTransactions() {
        assertThat(orders.placeAndCommit("o-1")).isEqualTo("o-1/0");
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size(QUEUE) == 1);

        assertThatThrownBy(() -> orders.placeAndFail("o-2")).hasMessage("payment refused");
        // A cancel after the rollback would remove o-2 if it had been stored: it must not exist.
        assertThat(queue.cancel(QUEUE, "o-2")).isFalse();
        assertThat(queue.size(QUEUE)).isEqualTo(1);

        assertThatThrownBy(() -> orders.cancelAndFail("o-1")).hasMessage("rolled back");
        assertThat(queue.size(QUEUE)).isEqualTo(1);

        assertThat(orders.cancelAndCommit("o-1")).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size(QUEUE) == 0);

        // The generated id is known before the commit, and it is the id stored.
        String id = orders.scheduleGeneratedId();
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size(QUEUE) == 1);
        assertThat(queue.cancel(QUEUE, id)).isTrue();

        // Outside a transaction: at once.
        queue.scheduleWithId(QUEUE, "o-3", "payload", Duration.ofHours(1));
        assertThat(queue.size(QUEUE)).isEqualTo(1);
        assertThat(queue.cancel(QUEUE, "o-3")).isTrue();
    }
}
