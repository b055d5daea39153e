package io.quarkiverse.pacer.deployment.throttle;

import static io.quarkiverse.pacer.test.support.RedisCommands.send;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.redis.PacerRedis;
import io.quarkiverse.pacer.test.support.RedisCommands;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An acquire that times out on the client but runs in Redis later still took a {@code CONCURRENCY} lease; the call
 * (let through by {@code on-redis-failure=allow}) releases it by its token when it ends, so a slow Redis cannot use up
 * the limit with leaked leases: after the call no lease is left.
 */
class ThrottleConcurrencyReleaseAfterTimeoutTest {

    static final String LEASES = "pacer:t:{slots:}:cc";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class, RedisCommands.class))
            .overrideConfigKey("quarkus.pacer.throttle.timeout", "200ms");

    @ApplicationScoped
    public static class Api {
        private final CountDownLatch proceed = new CountDownLatch(1);
        private volatile boolean ran;

        @Throttled(name = "slots", limit = 2, window = "10m", algorithm = Algorithm.CONCURRENCY)
        public void work() throws InterruptedException {
            ran = true;
            proceed.await(30, TimeUnit.SECONDS);
        }

        public boolean ran() {
            return ran;
        }

        public void proceed() {
            proceed.countDown();
        }
    }

    @Inject
    Api api;

    @Inject
    PacerRedis redis;

    @Test
    void leaseTakenAfterTheTimeoutIsReleased() throws Exception {
        // Writes (scripts) wait for 1.5 s.
        send(redis, "CLIENT", "PAUSE", 1500, "WRITE");
        CompletableFuture<Void> call = CompletableFuture.runAsync(() -> {
            try {
                api.work();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(api::ran);
        // The acquire timed out (the call was allowed). Once Redis takes writes again, an acquire that reached it has
        // run and taken its lease (a transport that gave the connection up may have dropped it instead).
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> send(redis, "SET", "pacer-test:writable", "1") != null);

        api.proceed();
        call.get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> send(redis, "ZCARD", LEASES).toInteger() == 0);
    }
}
