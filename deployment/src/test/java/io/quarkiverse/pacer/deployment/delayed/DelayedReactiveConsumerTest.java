package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.test.support.RedisInfo;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * Reactive consumers (Uni, CompletionStage) are invoked on an event loop and complete asynchronously; blocking
 * consumers run on worker threads, never on an event loop. The thread each one ran on is recorded.
 */
class DelayedReactiveConsumerTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Consumers.class, RedisInfo.class));

    @Singleton
    static class Consumers {
        final Map<String, String> threads = new ConcurrentHashMap<>();
        final Map<String, Boolean> onEventLoop = new ConcurrentHashMap<>();

        @Delayed("uni")
        Uni<Void> uni(String payload) {
            record("uni");
            return Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(20))
                    .invoke(() -> threads.put("uni-completed", "yes"));
        }

        @Delayed("stage")
        CompletionStage<Void> stage(String payload) {
            record("stage");
            return CompletableFuture.completedFuture(null);
        }

        @Delayed("blocking")
        void blocking(String payload) {
            record("blocking");
        }

        private void record(String queue) {
            threads.put(queue, Thread.currentThread().getName());
            onEventLoop.put(queue, Context.isOnEventLoopThread());
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Consumers consumers;

    @Test
    void reactiveOnEventLoopBlockingOnWorkers() {
        queue.schedule("uni", "u", Duration.ZERO);
        queue.schedule("stage", "s", Duration.ZERO);
        queue.schedule("blocking", "b", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumers.threads.size() == 4);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.size("uni") + queue.size("stage")
                + queue.size("blocking") == 0);

        assertThat(consumers.onEventLoop).containsEntry("uni", true).containsEntry("stage", true)
                .containsEntry("blocking", false);
        assertThat(consumers.threads.get("uni")).contains("eventloop");
        assertThat(consumers.threads.get("stage")).contains("eventloop");
        assertThat(consumers.threads.get("blocking")).doesNotContain("eventloop");
    }
}
