package io.quarkiverse.pacer.optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkus.test.QuarkusUnitTest;

/** A queue cannot have both a {@code @Delayed} method and a forward-to channel: the build fails naming both. */
class DelayedForwardToConflictTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class))
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
                assertThat(message).contains("quarkus.pacer.delayed.\"orders\".forward-to=orders-out conflicts with"
                        + " @Delayed(\"orders\") declared on " + Orders.class.getName() + "#expire(): a queue has one"
                        + " consumer, either a @Delayed method or a forward-to channel");
            });

    @Singleton
    static class Orders {
        @Delayed("orders")
        void expire(String order) {
        }
    }

    @Test
    void buildFails() {
        fail("The build must fail");
    }
}
