package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.test.QuarkusUnitTest;

/** An invalid delay-queue setting fails startup with a message naming the property. */
class DelayedInvalidBatchSizeTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.batch-size", "0")
            .overrideConfigKey("quarkus.pacer.delayed.\"orders\".max-attempts", "0")
            .assertException(t -> {
                Throwable cause = t;
                while (cause != null && !(cause instanceof ConfigurationException)) {
                    cause = cause.getCause();
                }
                assertThat(cause).as("a ConfigurationException in " + t).isNotNull();
                assertThat(cause.getMessage())
                        .contains("quarkus.pacer.delayed.batch-size must be at least 1, was 0")
                        .contains("quarkus.pacer.delayed.\"orders\".max-attempts must be at least 1, was 0");
            });

    @Test
    void startupFails() {
        // the assertion is in assertException
    }
}
