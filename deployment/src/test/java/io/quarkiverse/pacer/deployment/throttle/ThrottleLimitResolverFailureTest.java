package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.logging.Level;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.deployment.support.Admissions;
import io.quarkiverse.pacer.deployment.support.LogCapture;
import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A resolver that throws, with the default {@code quarkus.pacer.throttle.limits.on-failure=annotation}: the key gets
 * the annotation's limit (exactly 3 calls pass), and one WARN names the policy and the key; an invalid answer (a limit
 * below the method's cost) is a failure too.
 */
class ThrottleLimitResolverFailureTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Broken.class, LogCapture.class, Admissions.class));

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Test
    void failingResolverMeansTheAnnotationsLimit() throws Exception {
        Class<?> cache = Class.forName("io.quarkiverse.pacer.runtime.throttle.limits.KeyLimitCache");
        try (LogCapture log = LogCapture.of(cache, Level.WARNING)) {
            assertThat(Admissions.count(10, () -> api.call("db-down"))).isEqualTo(3);
            assertThatThrownBy(() -> api.call("db-down")).isInstanceOfSatisfying(ThrottledException.class,
                    rejected -> assertThat(rejected.decision().limit()).isEqualTo(3));
            assertThat(log.messages()).singleElement().asString().contains("policy \"broken\"", "key \"db-down\"",
                    "plan database unreachable", "quarkus.pacer.throttle.limits.on-failure");
        }
        assertThat(engine.fallbackDecisions()).isZero();
    }

    @Test
    void invalidAnswerMeansTheAnnotationsLimit() {
        // Cost 2 of a limit of 4: two calls.
        assertThat(Admissions.count(10, () -> api.costly("tiny"))).isEqualTo(2);
        assertThatThrownBy(() -> api.costly("tiny")).isInstanceOfSatisfying(ThrottledException.class,
                rejected -> assertThat(rejected.decision().limit()).isEqualTo(4));
    }

    @ApplicationScoped
    public static class Broken implements ThrottleLimitResolver {
        @Override
        public ThrottleLimit resolve(String policy, String key) {
            if (key.equals("tiny")) {
                return ThrottleLimit.of(1);
            }
            throw new IllegalStateException("plan database unreachable");
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "broken", limit = 3, window = "1h", algorithm = Algorithm.FIXED_WINDOW, limits = Broken.class)
        public void call(@ThrottleKey String key) {
        }

        @Throttled(name = "costly", limit = 4, window = "1h", cost = 2, algorithm = Algorithm.FIXED_WINDOW, limits = Broken.class)
        public void costly(@ThrottleKey String key) {
        }
    }
}
