package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.inject.spi.DeploymentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** {@code forward-to} without Quarkus Messaging in the application fails the build naming the property. */
class DelayedForwardToWithoutMessagingTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.\"orders\".forward-to", "orders-out")
            .assertException(t -> {
                Throwable root = t;
                while (root.getCause() != null && !(root instanceof DeploymentException)) {
                    root = root.getCause();
                }
                String message = t.getMessage() + " " + root.getMessage();
                for (Throwable suppressed : root.getSuppressed()) {
                    message += " " + suppressed.getMessage();
                }
                assertThat(message).contains("quarkus.pacer.delayed.\"orders\".forward-to=orders-out needs Quarkus"
                        + " Messaging: add the io.quarkus:quarkus-messaging extension");
            });

    @Test
    void buildFails() {
        fail("The build must fail");
    }
}
