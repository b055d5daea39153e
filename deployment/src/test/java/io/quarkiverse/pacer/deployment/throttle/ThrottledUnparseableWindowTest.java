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
 * An unparseable {@code window} fails the build naming the annotation, class and method.
 */
class ThrottledUnparseableWindowTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .assertException(failure -> {
                assertThat(failure).isInstanceOf(DeploymentException.class);
                assertThat(Failures.messages(failure))
                        .contains(
                                "@Throttled declared on io.quarkiverse.pacer.deployment.throttle.ThrottledUnparseableWindowTest$Api#ping(): window \"soon\" is not a duration");
            });

    @Test
    void buildFails() {
        fail("the build must fail");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(limit = 5, window = "soon")
        public void ping() {
        }
    }
}
