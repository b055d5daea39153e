package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.support.Failures;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A configured window is a {@code Duration}: a value that is not one fails startup naming the property.
 */
class ThrottleUnparseableConfigWindowTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"api\".window", "soon")
            .assertException(failure -> assertThat(Failures.messages(failure))
                    .contains("quarkus.pacer.throttle.\"api\".window")
                    .contains("soon"));

    @Test
    void startupFails() {
        fail("startup must fail");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "api", limit = 10, window = "1s")
        public void call() {
        }
    }
}
