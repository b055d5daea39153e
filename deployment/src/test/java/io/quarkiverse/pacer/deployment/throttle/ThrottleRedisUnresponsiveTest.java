package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A Redis that accepts connections but never answers: decisions end after the time budget with the
 * {@code on-redis-failure} outcome, for blocking callers and for {@code Uni} callers on the event loop alike (whose
 * timer runs on the event loop, which never blocks).
 */
class ThrottleRedisUnresponsiveTest {

    /** Connections complete in the kernel's backlog; nothing ever reads or answers. */
    static final ServerSocket SILENT = silentServer();

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class))
            .overrideConfigKey("quarkus.redis.hosts", "redis://localhost:" + SILENT.getLocalPort())
            .overrideConfigKey("quarkus.pacer.throttle.on-redis-failure", "reject")
            .overrideConfigKey("quarkus.pacer.throttle.timeout", "300ms");

    @Inject
    Api api;

    @Inject
    Vertx vertx;

    @Test
    void decisionsEndWithinTheBudget() {
        assertThatThrownBy(api::ping).isInstanceOf(ThrottledException.class);

        List<String> events = new CopyOnWriteArrayList<>();
        vertx.runOnContext(ignored -> {
            api.reactivePing().subscribe().with(item -> events.add("item"),
                    failure -> events.add(failure.getClass().getSimpleName() + " on event loop "
                            + Context.isOnEventLoopThread()));
            events.add("returned");
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 2);
        assertThat(events).containsExactly("returned", "ThrottledException on event loop true");
        assertThat(api.calls()).isZero();
    }

    private static ServerSocket silentServer() {
        try {
            return new ServerSocket(0, 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ApplicationScoped
    public static class Api {
        private int calls;

        @Throttled(limit = 5, window = "1s")
        public void ping() {
            calls++;
        }

        @Throttled(limit = 5, window = "1s")
        public Uni<String> reactivePing() {
            calls++;
            return Uni.createFrom().item("pong");
        }

        int calls() {
            return calls;
        }
    }
}
