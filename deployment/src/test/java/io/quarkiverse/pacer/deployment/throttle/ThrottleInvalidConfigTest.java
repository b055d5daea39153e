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
 * Invalid overrides fail startup, each problem naming its property.
 */
class ThrottleInvalidConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"api\".window", "PT0.0005S")
            .overrideConfigKey("quarkus.pacer.throttle.\"api\".limit", "0")
            .overrideConfigKey("quarkus.pacer.throttle.\"bucket\".burst", "2")
            .overrideConfigKey("quarkus.pacer.throttle.\"half-configured\".limit", "5")
            .assertException(failure -> assertThat(Failures.messages(failure))
                    .contains("quarkus.pacer.throttle.\"api\".limit must be positive, was 0")
                    .contains("quarkus.pacer.throttle.\"api\".window: \"PT0.0005S\" is shorter than the minimum window of 1ms")
                    .contains("quarkus.pacer.throttle.\"bucket\".burst: the capacity 2 is below the cost 3 of "
                            + Api.class.getName() + "#bulk()")
                    .contains("quarkus.pacer.throttle.\"half-configured\".window is required"));

    @Test
    void startupFails() {
        fail("startup must fail");
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "api", limit = 10, window = "1s")
        public void call() {
        }

        @Throttled(name = "bucket", limit = 10, window = "1s", cost = 3)
        public void bulk() {
        }
    }
}
