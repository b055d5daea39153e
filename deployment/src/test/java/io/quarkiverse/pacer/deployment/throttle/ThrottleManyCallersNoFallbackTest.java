package io.quarkiverse.pacer.deployment.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.pacer.runtime.throttle.engine.ThrottleEngine;
import io.quarkiverse.pacer.throttle.Algorithm;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.quarkiverse.pacer.throttle.ThrottledException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Far more concurrent callers than the Redis client's pool has connections (Quarkus defaults: 6, 24 waiting): every
 * decision is made by Redis, none falls back, and exactly the limit is admitted.
 */
class ThrottleManyCallersNoFallbackTest {

    static final int CALLERS = 256;
    static final int CALLS_PER_CALLER = 20;
    static final int LIMIT = 1000;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Api.class));

    @Inject
    Api api;

    @Inject
    ThrottleEngine engine;

    @Test
    void everyDecisionIsMadeByRedis() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> callers = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                callers.add(pool.submit(() -> {
                    go.await();
                    int admitted = 0;
                    for (int call = 0; call < CALLS_PER_CALLER; call++) {
                        try {
                            api.call("hot");
                            admitted++;
                        } catch (ThrottledException rejected) {
                            // counted by difference
                        }
                    }
                    return admitted;
                }));
            }
            go.countDown();
            int admitted = 0;
            for (Future<Integer> caller : callers) {
                admitted += caller.get(120, TimeUnit.SECONDS);
            }
            assertThat(engine.fallbackDecisions()).as("fallback decisions").isZero();
            assertThat(admitted).isEqualTo(LIMIT);
        } finally {
            pool.shutdownNow();
        }
    }

    @ApplicationScoped
    public static class Api {
        @Throttled(name = "many-callers", limit = LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        public void call(@ThrottleKey String key) {
        }
    }
}
