package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.support.Failures;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Two {@code @Throttled} with one name but different settings fail the build: one name must mean one policy.
 */
class ThrottledConflictingPolicyNamesTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .assertException(failure -> {
                assertThat(failure).isInstanceOf(DeploymentException.class);
                assertThat(Failures.messages(failure))
                        .contains(
                                "@Throttled declared on io.quarkiverse.pacer.deployment.throttle.ThrottledConflictingPolicyNamesTest$Api#second(): policy \"shared\" is also declared on io.quarkiverse.pacer.deployment.throttle.ThrottledConflictingPolicyNamesTest$Api#")
                        .contains("with different settings");
            });

    @Test
    void buildFails() {
        fail("the build must fail");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "shared", limit = 5, window = "1s")
        public void first() {
        }

        @Throttled(name = "shared", limit = 5, window = "1000ms")
        public void sameSettings() {
        }

        @Throttled(name = "shared", limit = 6, window = "1s")
        public void second() {
        }
    }
}
