package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.test.support.Failures;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Every invalid @Delayed method fails the build, all reported at once in one clean message (as for @Throttled), each
 * naming the class and method.
 */
class DelayedMissingPayloadTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class, Duplicate.class, Failures.class))
            .assertException(t -> {
                // Reported like @Throttled problems: one DeploymentException listing every problem, no wrapped
                // exception types in front of the lines.
                assertThat(t).isInstanceOf(DeploymentException.class);
                assertThat(t.getMessage()).startsWith("Invalid @Delayed usage:\n - @Delayed(");
                assertThat(Failures.messages(t)).doesNotContain("IllegalStateException");
                String message = t.getMessage();
                assertThat(message)
                        .contains("@Delayed(\"orders\") declared on " + Orders.class.getName()
                                + "#expire(): payload parameter missing")
                        .contains("@Delayed(\"two\") declared on " + Orders.class.getName()
                                + "#two(): the method must have exactly one parameter")
                        .contains("@Delayed(\"private\") declared on " + Orders.class.getName()
                                + "#hidden(): the method must not be private")
                        .contains("@Delayed(\"wrong-return\") declared on " + Orders.class.getName()
                                + "#returnsString(): the method must return void, Uni<Void> or CompletionStage<Void>")
                        .contains("@Delayed(\"uni-string\") declared on " + Orders.class.getName()
                                + "#uniOfString(): the method must return void")
                        .contains("@Delayed(\"bad-lease\") declared on " + Orders.class.getName()
                                + "#badLease(): lease is not a duration")
                        .contains("@Delayed(\"short-lease\") declared on " + Orders.class.getName()
                                + "#shortLease(): lease must be at least 100ms, was \"50ms\"")
                        .contains("@Delayed(\"dup\") declared on ")
                        .contains("queue dup already has a consumer");
            });

    @Singleton
    static class Orders {
        @Delayed("orders")
        void expire() {
        }

        @Delayed("two")
        void two(String a, String b) {
        }

        @Delayed("private")
        private void hidden(String a) {
        }

        @Delayed("wrong-return")
        String returnsString(String a) {
            return a;
        }

        @Delayed("uni-string")
        Uni<String> uniOfString(String a) {
            return Uni.createFrom().item(a);
        }

        @Delayed(value = "bad-lease", lease = "soon")
        void badLease(String a) {
        }

        @Delayed(value = "short-lease", lease = "50ms")
        void shortLease(String a) {
        }

        @Delayed("dup")
        void first(String a) {
        }
    }

    @Singleton
    static class Duplicate {
        @Delayed("dup")
        void second(String a) {
        }
    }

    @Test
    void buildFails() {
        // the assertion is in assertException
    }
}
