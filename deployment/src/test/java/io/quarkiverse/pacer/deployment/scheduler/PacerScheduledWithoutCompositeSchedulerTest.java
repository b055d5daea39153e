package io.quarkiverse.pacer.deployment.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.test.QuarkusUnitTest;

/** executeWith = "PACER" without Quarkus's composite scheduler fails the build, saying which property to set. */
class PacerScheduledWithoutCompositeSchedulerTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class))
            .assertException(t -> {
                assertThat(t).isInstanceOf(DeploymentException.class);
                assertThat(t.getMessage()).contains("@Scheduled(executeWith = \"PACER\") declared on "
                        + Jobs.class.getName() + "#report(): set quarkus.scheduler.use-composite-scheduler=true");
            });

    @Singleton
    static class Jobs {
        @Scheduled(cron = "0 0 * * * ?", identity = "report", executeWith = "PACER")
        void report() {
        }
    }

    @Test
    void buildFails() {
        // the assertion is in assertException
    }
}
