package io.quarkiverse.pacer.deployment.throttle;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SLIDING_WINDOW: exactly {@value CountingAlgorithmExactUnderConcurrency#LIMIT} of
 * {@value CountingAlgorithmExactUnderConcurrency#ATTEMPTS} concurrent calls over two instances are admitted
 * (with the previous window empty the estimate is the current count, so exactly `limit`: the documented bound of at most
 * `limit` within one aligned window, reached).
 */
class SlidingWindowExactUnderConcurrencyTest extends CountingAlgorithmExactUnderConcurrency {

    @RegisterExtension
    static final QuarkusUnitTest config = application(Api.class);

    @Inject
    Api api;

    SlidingWindowExactUnderConcurrencyTest() {
        super(Api.POLICY, 2, Duration.parse("P1D"));
    }

    @Override
    void hit() {
        api.hit();
    }

    @ApplicationScoped
    public static class Api {
        static final String POLICY = "sliding-window";

        @Throttled(name = POLICY, limit = LIMIT, window = "1d", algorithm = Algorithm.SLIDING_WINDOW)
        public void hit() {
        }
    }
}
