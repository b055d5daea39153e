package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A queue named like a setting group of {@code quarkus.pacer.delayed} ({@code consumer}, {@code after-commit}) or a
 * policy named like one of {@code quarkus.pacer.throttle} ({@code limits}, {@code local-rejections}) fails the build,
 * naming the method.
 */
class PacerReservedNamesTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .assertException(t -> {
                assertThat(t).isInstanceOf(DeploymentException.class);
                assertThat(t.getMessage())
                        .contains("@Delayed(\"consumer\") declared on " + Handlers.class.getName()
                                + "#consume(): the queue name \"consumer\" is reserved: quarkus.pacer.delayed.consumer.*"
                                + " configures Pacer itself")
                        .contains("@Delayed(\"after-commit\") declared on " + Handlers.class.getName()
                                + "#afterCommit(): the queue name \"after-commit\" is reserved")
                        .contains("@Throttled declared on " + Handlers.class.getName()
                                + "#limited(): the policy name \"limits\" is reserved: quarkus.pacer.throttle.limits.*"
                                + " configures Pacer itself");
            });

    @Singleton
    static class Handlers {
        @Delayed("consumer")
        void consume(String payload) {
        }

        @Delayed("after-commit")
        void afterCommit(String payload) {
        }

        @Throttled(name = "limits", limit = 1, window = "1s")
        public void limited() {
        }
    }

    @Test
    void buildFails() {
        // the assertion is in assertException
    }
}
