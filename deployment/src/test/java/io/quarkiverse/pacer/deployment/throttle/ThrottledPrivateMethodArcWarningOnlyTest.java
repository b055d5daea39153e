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
 * {@code @Throttled} on a private method fails the build with Pacer's own message even when ArC's generic check is
 * turned into a warning ({@code quarkus.arc.fail-on-intercepted-private-method=false}).
 */
class ThrottledPrivateMethodArcWarningOnlyTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.arc.fail-on-intercepted-private-method", "false")
            .assertException(failure -> {
                assertThat(failure).isInstanceOf(DeploymentException.class);
                assertThat(Failures.messages(failure))
                        .contains(
                                "@Throttled declared on io.quarkiverse.pacer.deployment.throttle.ThrottledPrivateMethodArcWarningOnlyTest$Api#secret(): private methods cannot be intercepted");
            });

    @Test
    void buildFails() {
        fail("the build must fail");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(limit = 5, window = "1s")
        private void secret() {
        }
    }
}
