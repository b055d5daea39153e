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
 * {@code shadow = true} evaluates and records but never rejects, and a shadow policy over its limit does not block
 * the enforcing policy stacked with it.
 */
class ThrottledShadowModeTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    Throttler throttler;

    @Test
    void shadowNeverRejects() {
        for (int i = 0; i < 5; i++) {
            api.trial();
        }
        assertThat(throttler.peek("trial", null).allowed()).isFalse();

        api.mixed();
        api.mixed();
        api.mixed();
        assertThatThrownBy(api::mixed).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decisions()).extracting(d -> d.policy()).containsExactly("enforced"));
        assertThat(api.calls()).isEqualTo(8);
    }

    @ApplicationScoped
    public static class Api {
        private int calls;

        @Throttled(name = "trial", limit = 2, window = "1h", shadow = true)
        public void trial() {
            calls++;
        }

        @Throttled(name = "mixed-shadow", limit = 1, window = "1h", shadow = true)
        @Throttled(name = "enforced", limit = 3, window = "1h")
        public void mixed() {
            calls++;
        }

        int calls() {
            return calls;
        }
    }
}
