package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.deployment.support.RedisInfo;
import io.quarkiverse.pacer.runtime.delay.consumer.DelayedConsumers;
import io.quarkus.test.QuarkusUnitTest;

/**
 * quarkus.pacer.delayed."queue".* overrides the annotation at runtime: two attempts 10ms apart instead of five an hour
 * apart; enabled=false leaves a queue unconsumed in this instance.
 */
class DelayedConfigOverrideTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.pacer.delayed.\"flaky\".max-attempts", "2")
            .overrideConfigKey("quarkus.pacer.delayed.\"flaky\".backoff", "10ms")
            .overrideConfigKey("quarkus.pacer.delayed.\"off\".enabled", "false")
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final List<Integer> attempts = new CopyOnWriteArrayList<>();

        @Delayed(value = "flaky", maxAttempts = 5, backoff = "1h")
        void flaky(DelayedMessage<String> message) {
            attempts.add(message.attempt());
            throw new IllegalStateException("always fails");
        }

        @Delayed("off")
        void off(String payload) {
            attempts.add(-1);
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Inject
    DelayedConsumers consumers;

    @Test
    void configOverridesTheAnnotation() {
        assertThat(consumers.consumedQueues()).containsExactly("flaky");
        queue.schedule("off", "not consumed", Duration.ZERO);
        queue.schedule("flaky", "fails", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.deadLetterCount("flaky") == 1);
        assertThat(consumer.attempts).containsExactly(1, 2);
        assertThat(queue.deadLetters("flaky", 1).get(0).attempts()).isEqualTo(2);
        assertThat(queue.size("off")).isEqualTo(1);
    }
}
