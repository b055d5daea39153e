package io.quarkiverse.pacer.deployment.delayed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * {@code @Blocking}, {@code @NonBlocking} and {@code @RunOnVirtualThread} on {@code @Delayed} methods build and choose
 * the thread: a worker for {@code @Blocking} (even returning {@code Uni}), the event loop for {@code @NonBlocking}
 * (even returning {@code void}), a virtual thread for {@code @RunOnVirtualThread} on Java 21 and later and a worker
 * thread (never the event loop) on Java 17. Each handler records where it ran.
 */
class DelayedExecutionModelTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Ran.class));

    /** Where a handler ran. */
    record Ran(boolean eventLoop, boolean worker, boolean virtual, String thread) {
        static Ran here() {
            return new Ran(Context.isOnEventLoopThread(), Context.isOnWorkerThread(), isVirtual(Thread.currentThread()),
                    Thread.currentThread().getName());
        }

        /** {@code Thread.isVirtual()} exists from Java 21; the project compiles for 17. */
        static boolean isVirtual(Thread thread) {
            try {
                return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
            } catch (NoSuchMethodException e) {
                return false;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Singleton
    static class Handlers {
        final Map<String, Ran> ran = new ConcurrentHashMap<>();

        @Delayed("blocking-uni")
        @Blocking
        Uni<Void> blockingUni(String payload) {
            ran.put(payload, Ran.here());
            return Uni.createFrom().voidItem();
        }

        @Delayed("non-blocking-void")
        @NonBlocking
        void nonBlockingVoid(String payload) {
            ran.put(payload, Ran.here());
        }

        @Delayed("virtual")
        @RunOnVirtualThread
        void virtual(String payload) {
            ran.put(payload, Ran.here());
        }

        @Delayed("default-void")
        void defaultVoid(String payload) {
            ran.put(payload, Ran.here());
        }
    }

    @Inject
    DelayedQueue queue;

    @Inject
    Handlers handlers;

    @Test
    void eachAnnotationChoosesTheThread() {
        queue.schedule("blocking-uni", "blocking-uni", Duration.ZERO);
        queue.schedule("non-blocking-void", "non-blocking-void", Duration.ZERO);
        queue.schedule("virtual", "virtual", Duration.ZERO);
        queue.schedule("default-void", "default-void", Duration.ZERO);
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.ran.size() == 4);

        Ran blocking = handlers.ran.get("blocking-uni");
        assertThat(blocking.eventLoop()).as(blocking.thread()).isFalse();
        assertThat(blocking.worker()).as(blocking.thread()).isTrue();

        Ran nonBlocking = handlers.ran.get("non-blocking-void");
        assertThat(nonBlocking.eventLoop()).as(nonBlocking.thread()).isTrue();

        Ran byDefault = handlers.ran.get("default-void");
        assertThat(byDefault.worker()).as(byDefault.thread()).isTrue();

        Ran virtual = handlers.ran.get("virtual");
        assertThat(virtual.eventLoop()).as(virtual.thread()).isFalse();
        if (Runtime.version().feature() >= 21) {
            assertThat(virtual.virtual()).as(virtual.thread()).isTrue();
        } else {
            // Java 17: Quarkus's virtual-thread executor falls back to its worker threads.
            assertThat(virtual.virtual()).as(virtual.thread()).isFalse();
        }
        System.out.printf("Java %d: @RunOnVirtualThread ran on %s (virtual: %s)%n", Runtime.version().feature(),
                virtual.thread(), virtual.virtual());
    }
}
