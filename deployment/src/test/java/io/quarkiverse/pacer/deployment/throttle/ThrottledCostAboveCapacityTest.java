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
 * A {@code cost} above the capacity could never pass: a build error (burst for buckets, limit otherwise).
 */
class ThrottledCostAboveCapacityTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .assertException(failure -> {
                assertThat(failure).isInstanceOf(DeploymentException.class);
                assertThat(Failures.messages(failure))
                        .contains(
                                "@Throttled declared on io.quarkiverse.pacer.deployment.throttle.ThrottledCostAboveCapacityTest$Api#tooExpensive(): cost 6 exceeds the capacity 5 (limit), so the call could never pass")
                        .contains(
                                "@Throttled declared on io.quarkiverse.pacer.deployment.throttle.ThrottledCostAboveCapacityTest$Api#aboveBurst(): cost 11 exceeds the capacity 10 (burst), so the call could never pass");
            });

    @Test
    void buildFails() {
        fail("the build must fail");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(limit = 5, window = "1s", cost = 6, algorithm = Algorithm.SLIDING_LOG)
        public void tooExpensive() {
        }

        @Throttled(limit = 100, burst = 10, window = "1s", cost = 11)
        public void aboveBurst() {
        }
    }
}
