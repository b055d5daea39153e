package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.test.QuarkusUnitTest;

/** PACER as the default implementation without Quarkus's composite scheduler fails the build, naming both properties. */
class PacerDefaultImplementationWithoutCompositeSchedulerTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.scheduler.default-implementation", "true")
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class))
            .assertException(t -> {
                assertThat(t).isInstanceOf(DeploymentException.class);
                assertThat(t.getMessage()).contains("quarkus.pacer.scheduler.default-implementation=true needs "
                        + "quarkus.scheduler.use-composite-scheduler=true (Quarkus's default is false): set both");
            });

    @Singleton
    static class Jobs {
        @Scheduled(every = "1s", identity = "report")
        void report() {
        }
    }

    @Test
    void buildFails() {
        // the assertion is in assertException
    }
}
