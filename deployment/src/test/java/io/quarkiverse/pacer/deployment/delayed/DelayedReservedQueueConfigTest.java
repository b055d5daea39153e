package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.test.support.Failures;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Settings of a queue under a reserved name fail startup naming the property, while the setting group of that name
 * ({@code consumer.enabled}) keeps working.
 */
class DelayedReservedQueueConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.pacer.delayed.\"after-commit\".concurrency", "3")
            .overrideConfigKey("quarkus.pacer.delayed.consumer.enabled", "true")
            .assertException(failure -> assertThat(Failures.messages(failure))
                    .contains("quarkus.pacer.delayed.\"after-commit\".concurrency: the queue name \"after-commit\" is"
                            + " reserved")
                    .doesNotContain("\"consumer\""));

    @Singleton
    static class Handlers {
        @Delayed("orders")
        void expire(String payload) {
        }
    }

    @Test
    void startupFails() {
        fail("startup must fail");
    }
}
