package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.Admissions;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With Redis unreachable and {@code on-redis-failure=local}, each instance decides in memory with the key's own limit:
 * a {@code free-*} key gets its 2, a {@code pro-*} key its 6, and the rejections report those limits.
 */
class ThrottleLimitsPerKeyRedisDownLocalTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Plans.class, Admissions.class))
            // Nothing listens on port 1: connections are refused.
            .overrideConfigKey("quarkus.redis.hosts", "redis://localhost:1")
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "local");

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Test
    void localFallbackUsesTheKeysOwnLimit() {
        assertThat(Admissions.count(10, () -> api.call("free-acme"))).isEqualTo(2);
        assertThatThrownBy(() -> api.call("free-acme")).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().limit()).isEqualTo(2));
        assertThat(Admissions.count(10, () -> api.call("pro-globex"))).isEqualTo(6);
        assertThatThrownBy(() -> api.call("pro-globex")).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().limit()).isEqualTo(6));
        assertThat(engine.fallbackDecisions()).isEqualTo(22);
    }

    @ApplicationScoped
    public static class Plans implements ThrottleLimitResolver {
        @Override
        public ThrottleLimit resolve(String policy, String key) {
            return ThrottleLimit.of(key.startsWith("free-") ? 2 : 6);
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "local-plans", limit = 100, window = "1h", algorithm = Algorithm.FIXED_WINDOW, limits = Plans.class)
        public void call(@ThrottleKey String key) {
        }
    }
}
