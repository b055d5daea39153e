package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.ThrottleDecision;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A blocking method with the default algorithm: the first {@code limit} calls pass, the next is rejected with a
 * decision naming the default policy, and nothing else is consumed.
 */
class ThrottledBlockingMethodTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Test
    void admitsLimitThenRejects() {
        for (int i = 0; i < 5; i++) {
            assertThat(api.ping()).isEqualTo("pong");
        }
        assertThatThrownBy(api::ping).isInstanceOfSatisfying(ThrottledException.class, e -> {
            ThrottleDecision decision = e.decision();
            assertThat(decision.allowed()).isFalse();
            assertThat(decision.policy()).isEqualTo(Api.class.getName() + "#ping");
            assertThat(decision.limit()).isEqualTo(5);
            assertThat(decision.remaining()).isZero();
            assertThat(decision.key()).isEmpty();
            // 5 per hour refills one token every 12 minutes.
            assertThat(decision.retryAfter()).isGreaterThan(Duration.ofMinutes(11)).isLessThanOrEqualTo(Duration.ofMinutes(12));
        });
        assertThat(api.calls()).isEqualTo(5);
    }

    @ApplicationScoped
    public static class Api {
        int calls;

        @Throttled(limit = 5, window = "1h")
        public String ping() {
            calls++;
            return "pong";
        }

        int calls() {
            return calls;
        }
    }
}
