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
 * A key prefix with a brace would move every key's Redis Cluster hash tag into the prefix: startup fails naming the
 * property.
 */
class ThrottleKeyPrefixWithBracesTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.pacer.key-prefix", "app{1}")
            .assertException(failure -> assertThat(Failures.messages(failure))
                    .contains("quarkus.pacer.key-prefix must not contain '{' or '}' (Pacer places the Redis Cluster"
                            + " hash tag itself), was \"app{1}\""));

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
