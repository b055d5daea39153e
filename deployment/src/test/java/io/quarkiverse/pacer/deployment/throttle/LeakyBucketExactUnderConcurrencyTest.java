package io.quarkiverse.pacer.deployment.throttle;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * LEAKY_BUCKET: exactly {@value CountingAlgorithmExactUnderConcurrency#LIMIT} of
 * {@value CountingAlgorithmExactUnderConcurrency#ATTEMPTS} concurrent calls over two instances are admitted
 * (GCRA with a tolerance of `limit` permits, one more every 3 minutes).
 */
class LeakyBucketExactUnderConcurrencyTest extends CountingAlgorithmExactUnderConcurrency {

    @RegisterExtension
    static final QuarkusUnitTest config = application(Api.class);

    @Inject
    Api api;

    LeakyBucketExactUnderConcurrencyTest() {
        super(Api.POLICY, 5, Duration.parse("PT1H"));
    }

    @Override
    void hit() {
        api.hit();
    }

    @ApplicationScoped
    public static class Api {
        static final String POLICY = "leaky-bucket";

        @Throttled(name = POLICY, limit = LIMIT, window = "1h", algorithm = Algorithm.LEAKY_BUCKET)
        public void hit() {
        }
    }
}
