package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With Redis unreachable and {@code on-redis-failure=reject}, a call is rejected within the time budget instead of
 * hanging; {@code allow} (the default) lets it through.
 */
class ThrottleRedisDownRejectTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            // Nothing listens on port 1: connections are refused.
            .overrideConfigKey("quarkus.redis.hosts", "redis://localhost:1")
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "reject")
            .overrideConfigKey("quarkus.pacer.throttle.timeout", "300ms");

    @Inject
    Api api;

    @Test
    void rejectsWithinTheBudget() {
        assertThatThrownBy(api::ping).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(1)));
        assertThat(api.calls()).isZero();
    }

    @ApplicationScoped
    public static class Api {
        private int calls;

        @Throttled(limit = 5, window = "1s")
        public void ping() {
            calls++;
        }

        int calls() {
            return calls;
        }
    }
}
