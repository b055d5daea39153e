package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code @Throttled} on a class applies to each of its business methods, each with its own default policy
 * ({@code <class>#<method>}); a method's own {@code @Throttled} wins over the class's.
 */
class ThrottledOnTypeTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Test
    void classLevelAppliesPerMethodAndMethodLevelWins() {
        api.first();
        assertThatThrownBy(api::first).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().policy()).isEqualTo(Api.class.getName() + "#first"));
        api.second();
        assertThatThrownBy(api::second).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().policy()).isEqualTo(Api.class.getName() + "#second"));
        for (int i = 0; i < 3; i++) {
            api.own();
        }
        assertThatThrownBy(api::own).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().policy()).isEqualTo("own"));
    }

    @ApplicationScoped
    @Throttled(limit = 1, window = "1h")
    public static class Api {

        public void first() {
        }

        public void second() {
        }

        @Throttled(name = "own", limit = 3, window = "1h")
        public void own() {
        }
    }
}
