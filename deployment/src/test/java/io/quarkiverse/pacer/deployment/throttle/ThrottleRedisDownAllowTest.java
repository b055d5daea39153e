package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With Redis unreachable and {@code on-redis-failure=allow} (the default), calls go through after at most the time
 * budget instead of hanging.
 */
class ThrottleRedisDownAllowTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            // Nothing listens on port 1: connections are refused.
            .overrideConfigKey("quarkus.redis.hosts", "redis://localhost:1")
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "allow")
            .overrideConfigKey("quarkus.pacer.throttle.timeout", "300ms");

    @Inject
    Api api;

    @Test
    void allowsWithinTheBudget() {
        api.ping();
        api.ping();
        assertThat(api.calls()).isEqualTo(2);
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
