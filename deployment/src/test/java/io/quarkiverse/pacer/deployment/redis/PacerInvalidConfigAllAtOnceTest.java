package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Invalid throttling and delay-queue settings fail startup once, with every problem in one message, each naming its
 * property: a user fixes them all in one go.
 */
class PacerInvalidConfigAllAtOnceTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"api\".limit", "0")
            // 100,000 per day is exact with FIXED_WINDOW, not with TOKEN_BUCKET (burst x window >= 2^52 µs).
            .overrideConfigKey("quarkus.pacer.throttle.\"daily\".algorithm", "token-bucket")
            .overrideConfigKey("quarkus.pacer.delayed.batch-size", "0")
            .overrideConfigKey("quarkus.pacer.delayed.producer-timeout", "-1s")
            .overrideConfigKey("quarkus.pacer.delayed.after-commit.retry-for", "-1s")
            .overrideConfigKey("quarkus.pacer.delayed.\"orders\".lease", "10ms")
            .assertException(failure -> {
                Throwable cause = failure;
                while (cause != null && !(cause instanceof ConfigurationException)) {
                    cause = cause.getCause();
                }
                assertThat(cause).as("a ConfigurationException in " + failure).isNotNull();
                assertThat(cause.getMessage()).isEqualTo("Invalid Pacer configuration:\n"
                        + " - quarkus.pacer.throttle.\"api\".limit must be positive, was 0\n"
                        + " - quarkus.pacer.throttle.\"daily\".limit: burst 100000 times window 1d is too large for"
                        + " exact arithmetic with TOKEN_BUCKET (at most 2^52 permit-microseconds); use a smaller limit,"
                        + " burst or window, or FIXED_WINDOW, SLIDING_LOG or CONCURRENCY, which have no such bound\n"
                        + " - quarkus.pacer.delayed.batch-size must be at least 1, was 0\n"
                        + " - quarkus.pacer.delayed.producer-timeout must not be negative, was PT-1S\n"
                        + " - quarkus.pacer.delayed.after-commit.retry-for must not be negative, was PT-1S\n"
                        + " - quarkus.pacer.delayed.\"orders\".lease must be at least 100ms, was PT0.01S");
            });

    @Test
    void startupFails() {
        fail("startup must fail");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "api", limit = 10, window = "1s")
        public void call() {
        }

        @Throttled(name = "daily", limit = 100_000, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        public void daily() {
        }
    }
}
