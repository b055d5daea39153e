package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Several {@code @ThrottleKey} parameters combine into one key, in order; {@code null} is a value of its own
 * (distinct from {@code "null"}); long keys are hashed; the Redis key keeps {@code {<policy>:<key>}} as hash tag.
 */
class ThrottleKeyParametersTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    PacerRedis redis;

    @Test
    void keysCombineAndStayDistinct() {
        api.call("acme", 1, "eu");
        assertThatThrownBy(() -> api.call("acme", 2, "eu")).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().key()).isEqualTo("acme,eu"));
        api.call("acme", 1, "us");
        api.call("acme", 1, null);
        api.call("acme", 1, "null");
        api.call(null, 1, null);
        api.call("acme,eu", 1, "");
        assertThatThrownBy(() -> api.call("acme", 1, null)).isInstanceOf(ThrottledException.class);
        assertThat(exists("pacer:t:{acme,eu}keyed:tb")).isTrue();
        assertThat(exists("pacer:t:{acme,\\0}keyed:tb")).isTrue();

        String longTenant = "t".repeat(300);
        api.call(longTenant, 1, "eu");
        assertThatThrownBy(() -> api.call(longTenant, 1, "eu")).isInstanceOfSatisfying(ThrottledException.class,
                e -> assertThat(e.decision().key()).startsWith("\\h").hasSize(66));
    }

    private boolean exists(String key) {
        return redis.send(Request.cmd(Command.EXISTS).arg(key)).await().atMost(Duration.ofSeconds(5)).toInteger() == 1;
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "keyed", limit = 1, window = "1h")
        public void call(@ThrottleKey String tenant, int ignored, @ThrottleKey String region) {
        }
    }
}
