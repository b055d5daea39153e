package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkiverse.pacer.throttle.Throttler;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.pacer.throttle.limits.on-failure=reject}: while the resolver fails, every call of the key is
 * rejected (without asking Redis); once it answers again, the key gets its limit.
 */
class ThrottleLimitResolverFailureRejectTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Flaky.class))
            .overrideConfigKey("quarkus.pacer.throttle.limits.on-failure", "reject");

    @Inject
    Api api;

    @Inject
    Flaky flaky;

    @Inject
    Throttler throttler;

    @Test
    void failingResolverRejects() {
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> api.call("db-down")).isInstanceOfSatisfying(ThrottledException.class,
                    e -> assertThat(e.decision().policy()).isEqualTo("strict"));
        }
        assertThat(throttler.acquire("strict", "fine").allowed()).isTrue();
        assertThat(throttler.peek("strict", "fine").limit()).isEqualTo(10);
    }

    @ApplicationScoped
    public static class Flaky implements ThrottleLimitResolver {
        @Override
        public ThrottleLimit resolve(String policy, String key) {
            if (key.equals("db-down")) {
                throw new IllegalStateException("plan database unreachable");
            }
            return ThrottleLimit.of(10);
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "strict", limit = 3, window = "1h", limits = Flaky.class)
        public void call(@ThrottleKey String key) {
        }
    }
}
