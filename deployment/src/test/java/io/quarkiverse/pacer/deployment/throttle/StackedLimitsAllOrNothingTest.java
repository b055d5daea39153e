package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Stacked policies of different algorithms are decided in one script call, all-or-nothing: when one rejects, no
 * permit of the others is consumed — whichever position the rejecting policy has in the stack.
 */
class StackedLimitsAllOrNothingTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Test
    void laterPolicyRejectsAndTheEarlierConsumesNothing() {
        for (int i = 0; i < 3; i++) {
            api.search("acme");
        }
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> api.search("acme")).isInstanceOfSatisfying(ThrottledException.class,
                    e -> assertThat(e.decisions()).extracting(d -> d.policy()).containsExactly("search-burst"));
        }
        assertThat(throttler.peek("search", "acme").remaining()).isEqualTo(97);
        assertThat(throttler.peek("search-burst", "acme").remaining()).isZero();
        // Another key is untouched.
        assertThat(throttler.peek("search", "other").remaining()).isEqualTo(100);
    }

    @Test
    void earlierPolicyRejectsAndTheLaterConsumesNothing() {
        api.export();
        api.export();
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(api::export).isInstanceOfSatisfying(ThrottledException.class,
                    e -> assertThat(e.decision().policy()).isEqualTo("daily-exports"));
        }
        assertThat(throttler.peek("export-bucket", null).remaining()).isEqualTo(8);
        assertThat(api.exports()).isEqualTo(2);
    }

    @ApplicationScoped
    public static class Api {
        private int exports;

        @Throttled(name = "search", limit = 100, window = "1d", algorithm = Algorithm.SLIDING_WINDOW)
        @Throttled(name = "search-burst", limit = 3, window = "1h")
        public String search(@ThrottleKey String tenant) {
            return tenant;
        }

        @Throttled(name = "daily-exports", limit = 2, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        @Throttled(name = "export-bucket", limit = 10, window = "1h", algorithm = Algorithm.LEAKY_BUCKET)
        public void export() {
            exports++;
        }

        int exports() {
            return exports;
        }
    }
}
