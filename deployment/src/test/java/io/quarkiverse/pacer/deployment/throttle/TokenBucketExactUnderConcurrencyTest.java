package io.quarkiverse.pacer.deployment.throttle;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * TOKEN_BUCKET: exactly {@value CountingAlgorithmExactUnderConcurrency#LIMIT} of
 * {@value CountingAlgorithmExactUnderConcurrency#ATTEMPTS} concurrent calls over two instances are admitted
 * (a full bucket of `limit` tokens, refilling one token every 3 minutes).
 */
class TokenBucketExactUnderConcurrencyTest extends CountingAlgorithmExactUnderConcurrency {

    @RegisterExtension
    static final QuarkusUnitTest config = application(Api.class);

    @Inject
    Api api;

    TokenBucketExactUnderConcurrencyTest() {
        super(Api.POLICY, 4, Duration.parse("PT1H"));
    }

    @Override
    void hit() {
        api.hit();
    }

    @ApplicationScoped
    public static class Api {
        static final String POLICY = "token-bucket";

        @Throttled(name = POLICY, limit = LIMIT, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
        public void hit() {
        }
    }
}
