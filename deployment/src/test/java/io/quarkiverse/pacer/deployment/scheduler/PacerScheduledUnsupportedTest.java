package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.RunOnVirtualThread;

/** What the PACER scheduler does not support yet fails the build, naming the class and method and why. */
class PacerScheduledUnsupportedTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.scheduler.use-composite-scheduler", "true")
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class))
            .assertException(t -> {
                assertThat(t).isInstanceOf(DeploymentException.class);
                assertThat(t.getMessage()).startsWith("Invalid @Scheduled usage:\n - ")
                        .contains("@Scheduled(executeWith = \"PACER\") declared on " + Jobs.class.getName()
                                + "#jittered(): executionMaxDelay is not supported by the PACER scheduler yet")
                        .contains("@Scheduled(executeWith = \"PACER\") declared on " + Jobs.class.getName()
                                + "#virtual(): @RunOnVirtualThread is not supported by the PACER scheduler yet")
                        .doesNotContain("#fine()");
            });

    @Singleton
    static class Jobs {
        @Scheduled(every = "1s", executionMaxDelay = "500ms", executeWith = "PACER")
        void jittered() {
        }

        @RunOnVirtualThread
        @Scheduled(every = "1s", executeWith = "PACER")
        void virtual() {
        }

        @Scheduled(every = "1s", executeWith = "PACER")
        void fine() {
        }
    }

    @Test
    void buildFails() {
        // the assertion is in assertException
    }
}
