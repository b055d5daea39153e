package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;

/** A {@code @Delayed} method annotated both {@code @Blocking} and {@code @NonBlocking} fails the build, naming it. */
class DelayedConflictingExecutionModelTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .assertException(t -> {
                assertThat(t).isInstanceOf(DeploymentException.class);
                assertThat(t.getMessage()).contains("@Delayed(\"both\") declared on " + Handlers.class.getName()
                        + "#both(): @Blocking, @NonBlocking and @RunOnVirtualThread exclude each other, found 2 of them");
            });

    @Singleton
    static class Handlers {
        @Delayed("both")
        @Blocking
        @NonBlocking
        void both(String payload) {
        }
    }

    @Test
    void buildFails() {
        // the assertion is in assertException
    }
}
