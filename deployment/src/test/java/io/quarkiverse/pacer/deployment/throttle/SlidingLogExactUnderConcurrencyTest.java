package io.quarkiverse.pacer.deployment.throttle;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SLIDING_LOG: exactly {@value CountingAlgorithmExactUnderConcurrency#LIMIT} of
 * {@value CountingAlgorithmExactUnderConcurrency#ATTEMPTS} concurrent calls over two instances are admitted
 * (exact over any rolling window).
 */
class SlidingLogExactUnderConcurrencyTest extends CountingAlgorithmExactUnderConcurrency {

    @RegisterExtension
    static final QuarkusUnitTest config = application(Api.class);

    @Inject
    Api api;

    SlidingLogExactUnderConcurrencyTest() {
        super(Api.POLICY, 3, Duration.parse("PT1H"));
    }

    @Override
    void hit() {
        api.hit();
    }

    @ApplicationScoped
    public static class Api {
        static final String POLICY = "sliding-log";

        @Throttled(name = POLICY, limit = LIMIT, window = "1h", algorithm = Algorithm.SLIDING_LOG)
        public void hit() {
        }
    }
}
