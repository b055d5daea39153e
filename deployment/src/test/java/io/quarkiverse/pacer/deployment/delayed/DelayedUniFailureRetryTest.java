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
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/** A reactive handler whose Uni fails is retried like a throwing blocking one, and acknowledged once it succeeds. */
class DelayedUniFailureRetryTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumer.class, RedisInfo.class));

    @Singleton
    static class Consumer {
        final List<String> attempts = new CopyOnWriteArrayList<>();

        @Delayed(value = "reactive-retry", maxAttempts = 3, backoff = "20ms")
        Uni<Void> on(DelayedMessage<String> message) {
            attempts.add(message.id() + "#" + message.attempt());
            return message.attempt() < 3 ? Uni.createFrom().failure(new IllegalStateException("not yet"))
                    : Uni.createFrom().voidItem();
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumer consumer;

    @Test
    void failedUniIsRetried() {
        queue.scheduleWithId("reactive-retry", "r", "payload", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.attempts.size() == 3);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("reactive-retry") == 0);
        assertThat(consumer.attempts).containsExactly("r#1", "r#2", "r#3");
        assertThat(queue.deadLetterCount("reactive-retry")).isZero();
    }
}
