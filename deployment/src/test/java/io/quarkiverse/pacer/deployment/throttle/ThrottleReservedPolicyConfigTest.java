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
 * Settings of a policy under a reserved name fail startup naming the property, while the setting group of that name
 * ({@code limits.cache-max-size}) keeps working.
 */
class ThrottleReservedPolicyConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.pacer.throttle.\"limits\".limit", "5")
            .overrideConfigKey("quarkus.pacer.throttle.limits.cache-max-size", "100")
            .assertException(failure -> assertThat(Failures.messages(failure))
                    .contains("quarkus.pacer.throttle.\"limits\".limit: the policy name \"limits\" is reserved:"
                            + " quarkus.pacer.throttle.limits.* configures Pacer itself")
                    .doesNotContain("cache-max-size"));

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
