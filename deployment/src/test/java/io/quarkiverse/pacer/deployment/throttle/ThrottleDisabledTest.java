package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus.pacer.throttle.enabled=false} annotated methods run unchecked and take no permit; the
 * programmatic {@link Throttler} still decides.
 */
class ThrottleDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.pacer.throttle.enabled", "false");

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Test
    void callsPassThrough() {
        for (int i = 0; i < 5; i++) {
            api.once();
        }
        assertThat(api.calls()).isEqualTo(5);
        // No permit was taken by the five calls.
        assertThat(throttler.peek("once", null).remaining()).isEqualTo(1);
        assertThat(throttler.acquire("once", null).allowed()).isTrue();
        assertThat(throttler.acquire("once", null).allowed()).isFalse();
    }

    @ApplicationScoped
    public static class Api {
        int calls;

        @Throttled(name = "once", limit = 1, window = "1h")
        public void once() {
            calls++;
        }

        public int calls() {
            return calls;
        }
    }
}
