package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.test.support.Failures;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A {@code limits} class must implement {@code resolve} or {@code resolveAsync} (each defaults to the other) and be a
 * CDI bean: both are build errors naming the method.
 */
class ThrottledInvalidLimitResolverTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, Empty.class, NotABean.class))
            .assertException(failure -> {
                assertThat(failure).isInstanceOf(DeploymentException.class);
                assertThat(Failures.messages(failure))
                        .contains("@Throttled declared on " + Api.class.getName() + "#empty(): limits = "
                                + Empty.class.getName() + " implements neither resolve(String, String) nor"
                                + " resolveAsync(String, String); implement one of them")
                        .contains("@Throttled declared on " + Api.class.getName() + "#plain() (policy \"plain\"): limits = "
                                + NotABean.class.getName() + " is not a CDI bean; annotate it with @ApplicationScoped or"
                                + " @Singleton");
            });

    @Test
    void buildFails() {
        fail("the build must fail");
    }

    @ApplicationScoped
    public static class Empty implements ThrottleLimitResolver {
    }

    public static class NotABean implements ThrottleLimitResolver {
        @Override
        public ThrottleLimit resolve(String policy, String key) {
            return ThrottleLimit.of(1);
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "empty", limit = 5, window = "1s", limits = Empty.class)
        public void empty(@ThrottleKey String key) {
        }

        @Throttled(name = "plain", limit = 5, window = "1s", limits = NotABean.class)
        public void plain(@ThrottleKey String key) {
        }
    }
}
