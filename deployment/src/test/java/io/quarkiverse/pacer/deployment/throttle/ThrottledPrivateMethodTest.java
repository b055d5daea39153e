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
 * {@code @Throttled} on a private method (which cannot be intercepted) fails the build.
 */
class ThrottledPrivateMethodTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .assertException(failure -> {
                assertThat(failure).isInstanceOf(DeploymentException.class);
                assertThat(Failures.messages(failure))
                        // ArC's own check for intercepted private methods reports it first, naming annotation, class and method.
                        .contains("@Throttled(limit = 5,window = \"1s\") will have no effect on method "
                                + "io.quarkiverse.pacer.deployment.throttle.ThrottledPrivateMethodTest$Api.secret() because the method is private");
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
