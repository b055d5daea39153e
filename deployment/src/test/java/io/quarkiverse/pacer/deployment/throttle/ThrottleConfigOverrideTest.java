package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.pacer.throttle."<policy>".*} overrides the annotation at runtime (limit, algorithm, enabled), and
 * declares policies used only through the programmatic API.
 */
class ThrottleConfigOverrideTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"tight\".limit", "2")
            .overrideConfigKey("quarkus.pacer.throttle.\"tight\".algorithm", "fixed-window")
            .overrideConfigKey("quarkus.pacer.throttle.\"tight\".window", "1d")
            .overrideConfigKey("quarkus.pacer.throttle.\"off\".enabled", "false")
            .overrideConfigKey("quarkus.pacer.throttle.\"configured-only\".limit", "3")
            .overrideConfigKey("quarkus.pacer.throttle.\"configured-only\".window", "1h");

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Test
    void configurationWinsOverTheAnnotation() {
        api.tight();
        api.tight();
        assertThatThrownBy(api::tight).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().limit()).isEqualTo(2));
        // A fixed window of one day: the rejection lasts until the end of the (UTC-aligned) day.
        assertThat(throttler.peek("tight", null).resetAfter().toHours()).isLessThan(24);

        for (int i = 0; i < 5; i++) {
            api.off();
        }
        assertThat(api.offCalls()).isEqualTo(5);

        for (int i = 0; i < 3; i++) {
            assertThat(throttler.acquire("configured-only", "k").allowed()).isTrue();
        }
        assertThat(throttler.acquire("configured-only", "k").allowed()).isFalse();
        assertThat(throttler.acquire("configured-only", "other").allowed()).isTrue();
    }

    @ApplicationScoped
    public static class Api {
        private int offCalls;

        @Throttled(name = "tight", limit = 10, window = "1h")
        public void tight() {
        }

        @Throttled(name = "off", limit = 1, window = "1h")
        public void off() {
            offCalls++;
        }

        int offCalls() {
            return offCalls;
        }
    }
}
