package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;

/** A payload Jackson cannot serialize fails schedule with IllegalArgumentException and stores nothing. */
class DelayedUnserializablePayloadTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Broken.class, RedisInfo.class));

    public static class Broken {
        public String getValue() {
            throw new UnsupportedOperationException("cannot read value");
        }
    }

    @Inject
    DelayedQueue queue;

    @Test
    void scheduleFailsWithIllegalArgument() {
        assertThatThrownBy(() -> queue.schedule("broken", new Broken(), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Broken.class.getName())
                .hasMessageContaining("cannot be serialized to JSON");
        assertThatThrownBy(() -> queue.schedule("broken", null, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.schedule("bad{name}", "x", Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(queue.size("broken")).isZero();
    }
}
