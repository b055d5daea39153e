package io.quarkiverse.pacer.deployment.throttle;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * FIXED_WINDOW: exactly {@value CountingAlgorithmExactUnderConcurrency#LIMIT} of
 * {@value CountingAlgorithmExactUnderConcurrency#ATTEMPTS} concurrent calls over two instances are admitted
 * (exactly `limit` per aligned window).
 */
class FixedWindowExactUnderConcurrencyTest extends CountingAlgorithmExactUnderConcurrency {

    @RegisterExtension
    static final QuarkusUnitTest config = application(Api.class);

    @Inject
    Api api;

    FixedWindowExactUnderConcurrencyTest() {
        super(Api.POLICY, 1, Duration.parse("P1D"));
    }

    @Override
    void hit() {
        api.hit();
    }

    @ApplicationScoped
    public static class Api {
        static final String POLICY = "fixed-window";

        @Throttled(name = POLICY, limit = LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        public void hit() {
        }
    }
}
