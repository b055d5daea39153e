package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.support.Failures;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code limit <= 0} fails the build; every problem is reported at once.
 */
class ThrottledNonPositiveLimitTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .assertException(failure -> {
                assertThat(failure).isInstanceOf(DeploymentException.class);
                assertThat(Failures.messages(failure))
                        .contains(
                                "@Throttled declared on io.quarkiverse.pacer.deployment.throttle.ThrottledNonPositiveLimitTest$Api#zero(): limit must be positive, was 0")
                        .contains(
                                "@Throttled declared on io.quarkiverse.pacer.deployment.throttle.ThrottledNonPositiveLimitTest$Api#negative(): limit must be positive, was -3");
            });

    @Test
    void buildFails() {
        fail("the build must fail");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(limit = 0, window = "1s")
        public void zero() {
        }

        @Throttled(limit = -3, window = "1s", algorithm = Algorithm.FIXED_WINDOW)
        public void negative() {
        }
    }
}
