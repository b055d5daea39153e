package io.quarkiverse.pacer.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;

/**
 * A {@code Uni} method called on an event loop of the application is decided on a connection of that event loop: the
 * answer is read and handed to the caller on the caller's own thread (never one of Pacer's {@code pacer-redis-*}
 * threads, and without a task of its own), the decisions stay exact, and a connection Redis drops is opened again.
 */
class PacerCallerLoopConnectionsTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            // A decision that Redis does not answer is rejected: an admission below is always Redis's.
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "reject");

    @ApplicationScoped
    public static class Api {

        @Throttled(name = "caller-loop-exact", limit = 5, window = "1h")
        public Uni<String> limited() {
            return Uni.createFrom().item("admitted");
        }

        @Throttled(name = "caller-loop-roomy", limit = 1_000_000, window = "1h")
        public Uni<String> roomy() {
            return Uni.createFrom().item("admitted");
        }
    }

    /** What the callers of one burst saw. */
    record Burst(String caller, List<String> threads, int admitted, int rejected, int answeredInline) {
    }

    @Inject
    Api api;

    @Inject
    Vertx vertx;

    @Inject
    PacerRedis redis;

    @Test
    void answeredOnTheCallersThreadWithExactDecisions() throws Exception {
        Context context = vertx.getOrCreateContext();
        // The first decision opens Pacer's client; the event loop's own connection serves the next ones.
        assertThat(burst(context, api::roomy, 1).admitted()).isEqualTo(1);

        Burst burst = burst(context, api::limited, 20);

        assertThat(burst.admitted()).isEqualTo(5);
        assertThat(burst.rejected()).isEqualTo(15);
        assertThat(burst.caller()).startsWith("vert.x-eventloop-thread-").doesNotStartWith("pacer-redis-");
        assertThat(burst.threads()).hasSize(20).containsOnly(burst.caller());
        // Each answer Redis gave (the first of them, at least: local rejections are answered without Redis) was handed
        // over in the same stack that read it from the connection, on the caller's thread.
        assertThat(burst.answeredInline()).isPositive();
    }

    @Test
    void connectionDroppedByRedisIsOpenedAgain() throws Exception {
        Context context = vertx.getOrCreateContext();
        assertThat(burst(context, api::roomy, 3).admitted()).isEqualTo(3);

        RedisConnection other = redis.client().connect().toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        try {
            // Every connection but this one, Pacer's on the event loop among them.
            other.send(Request.cmd(Command.CLIENT).arg("KILL").arg("TYPE").arg("normal")).toCompletionStage()
                    .toCompletableFuture().get(10, TimeUnit.SECONDS);
        } finally {
            other.close();
        }

        // A decision written before the connection's end was seen is rejected (on-redis-failure=reject); the
        // connection is opened again and Redis decides the next ones, still on the caller's thread.
        await().atMost(Duration.ofSeconds(10)).until(() -> burst(context, api::roomy, 1).admitted() == 1);
        Burst after = burst(context, api::roomy, 10);
        assertThat(after.admitted()).isEqualTo(10);
        assertThat(after.threads()).hasSize(10).containsOnly(after.caller());
        assertThat(after.answeredInline()).isEqualTo(10);
    }

    /** Subscribes {@code calls} times to {@code call} in one task on {@code context}; waits for every outcome. */
    private static Burst burst(Context context, java.util.function.Supplier<Uni<String>> call, int calls)
            throws Exception {
        List<String> threads = new CopyOnWriteArrayList<>();
        AtomicInteger admitted = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        AtomicInteger inline = new AtomicInteger();
        AtomicInteger outcomes = new AtomicInteger();
        CompletableFuture<String> caller = new CompletableFuture<>();
        context.runOnContext(ignored -> {
            caller.complete(Thread.currentThread().getName());
            for (int i = 0; i < calls; i++) {
                call.get().subscribe().with(item -> {
                    record(threads, inline);
                    admitted.incrementAndGet();
                    outcomes.incrementAndGet();
                }, failure -> {
                    record(threads, inline);
                    if (failure instanceof ThrottledException) {
                        rejected.incrementAndGet();
                    }
                    outcomes.incrementAndGet();
                });
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> outcomes.get() == calls);
        return new Burst(caller.get(10, TimeUnit.SECONDS), List.copyOf(threads), admitted.get(), rejected.get(),
                inline.get());
    }

    private static void record(List<String> threads, AtomicInteger inline) {
        threads.add(Thread.currentThread().getName());
        StackTraceElement[] stack = Thread.currentThread().getStackTrace();
        // Read from the socket (the Redis client's response handler) and handed over in one stack, on this thread.
        if (Arrays.stream(stack).anyMatch(frame -> frame.getClassName().endsWith(".PipelinedConnection")
                && frame.getMethodName().equals("answered"))
                && Arrays.stream(stack).anyMatch(frame -> frame.getClassName().endsWith(".RedisStandaloneConnection")
                        && frame.getMethodName().equals("handle"))) {
            inline.incrementAndGet();
        }
    }
}
