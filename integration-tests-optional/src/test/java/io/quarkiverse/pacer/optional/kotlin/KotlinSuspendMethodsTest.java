package io.quarkiverse.pacer.optional.kotlin;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;
import kotlin.Unit;
import kotlin.coroutines.Continuation;

/**
 * Kotlin {@code suspend} functions are not supported: a {@code @Delayed} or {@code @Throttled} one fails the build with
 * a message saying so. The methods below are what the JVM sees of {@code suspend fun expire(order: String)}: a last
 * parameter of type {@link Continuation} and an {@code Object} result.
 */
class KotlinSuspendMethodsTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class))
            .assertException(t -> {
                assertThat(t).isInstanceOf(DeploymentException.class);
                assertThat(t.getMessage())
                        .contains("@Delayed(\"orders\") declared on " + Orders.class.getName()
                                + "#expire(): Kotlin suspend functions are not supported; declare a plain function"
                                + " (it runs on a worker thread) or return Uni<Void>")
                        .contains("@Throttled declared on " + Orders.class.getName()
                                + "#report(): Kotlin suspend functions are not supported");
            });

    @ApplicationScoped
    public static class Orders {
        @Delayed("orders")
        public Object expire(String order, Continuation<? super Unit> continuation) {
            return Unit.INSTANCE;
        }

        @Throttled(limit = 1, window = "1s")
        public Object report(String tenant, Continuation<? super String> continuation) {
            return "report";
        }
    }

    @Test
    void buildFails() {
        // the assertion is in assertException
    }
}
