package io.quarkiverse.pacer.it.instances;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The promise of {@code @Throttled}: two instances of the packaged application, with Quarkus's default Redis client
 * settings, and {@value #CALLERS} concurrent callers on each, hitting one key: exactly {@value #LIMIT} calls are
 * admitted, for every algorithm, stacked policies and reactive methods, and for each plan of a policy with limits
 * per key; a runtime override set through one instance is enforced exactly by the other within a second; not one
 * decision is a fallback.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoInstancesExactIT {

    static final int LIMIT = 50;
    static final int CALLERS = 256;
    static final int CALLS_PER_CALLER = 2;
    /** Callers per instance of the per-plan tests. */
    static final int PLAN_CALLERS = 64;

    private RedisServerProcess redis;
    private List<AppInstance> instances;
    private ExecutorService callers;

    @BeforeAll
    void start() throws Exception {
        redis = new RedisServerProcess().start();
        instances = List.of(new AppInstance("first", redis.uri()), new AppInstance("second", redis.uri()));
        callers = Executors.newFixedThreadPool(CALLERS * instances.size());
    }

    @AfterAll
    void stop() throws Exception {
        if (callers != null) {
            callers.shutdownNow();
        }
        if (instances != null) {
            for (AppInstance instance : instances) {
                instance.close();
            }
        }
        if (redis != null) {
            redis.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "fixed-window", "sliding-window", "sliding-log", "token-bucket", "leaky-bucket",
            "stacked", "uni", "completion-stage" })
    void exactlyLimitAdmitted(String endpoint) throws Exception {
        Map<Integer, Integer> statuses = fire("/exactness/" + endpoint + "/" + endpoint + "-key", CALLS_PER_CALLER);
        assertThat(statuses).containsOnlyKeys(200, 429);
        assertThat(statuses.get(200)).as("admitted calls of %s", endpoint).isEqualTo(LIMIT);
        assertThat(statuses.get(429)).isEqualTo(CALLERS * instances.size() * CALLS_PER_CALLER - LIMIT);
        assertNoFallback();
    }

    @Test
    void exactlyLimitInFlight() throws Exception {
        CountDownLatch ready = new CountDownLatch(CALLERS * instances.size());
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger rejected = new AtomicInteger();
        List<Future<Integer>> calls = new ArrayList<>();
        for (AppInstance instance : instances) {
            for (int i = 0; i < CALLERS; i++) {
                calls.add(callers.submit(() -> {
                    ready.countDown();
                    go.await();
                    int status = instance.status("POST", "/exactness/concurrency/held-key");
                    if (status == 429) {
                        rejected.incrementAndGet();
                    }
                    return status;
                }));
            }
        }
        ready.await(60, TimeUnit.SECONDS);
        go.countDown();
        // Every caller is either rejected or holds a permit at the gate of its instance.
        await().atMost(Duration.ofSeconds(120)).until(() -> rejected.get() + holding() == CALLERS * instances.size());
        assertThat(holding()).isEqualTo(LIMIT);
        for (AppInstance instance : instances) {
            instance.post("/exactness/concurrency-open");
        }
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (Future<Integer> call : calls) {
            statuses.merge(call.get(120, TimeUnit.SECONDS), 1, Integer::sum);
        }
        assertThat(statuses).containsOnlyKeys(200, 429).containsEntry(200, LIMIT);
        assertNoFallback();
    }

    /**
     * Limits per plan ({@code PlanLimits}: {@code free-*} 5 per day, {@code pro-*} 50): {@value #PLAN_CALLERS}
     * concurrent callers per instance, two calls each, on one tenant: exactly the plan's limit is admitted.
     */
    @ParameterizedTest
    @CsvSource({ "free-exact, 5", "pro-exact, 50" })
    void eachPlanGetsExactlyItsLimit(String tenant, int limit) throws Exception {
        Map<Integer, Integer> statuses = fire("/plans/exact/" + tenant, CALLS_PER_CALLER, PLAN_CALLERS);
        assertThat(statuses).containsOnlyKeys(200, 429);
        assertThat(statuses.get(200)).as("admitted calls of %s", tenant).isEqualTo(limit);
        assertThat(statuses.get(429)).isEqualTo(PLAN_CALLERS * instances.size() * CALLS_PER_CALLER - limit);
        assertNoFallback();
    }

    /**
     * An override set through the first instance is enforced exactly by the second within a second, cleared
     * likewise, and survives a restart: an instance started while it is set enforces it from its first call.
     */
    @Test
    void overrideSetOnOneInstanceIsEnforcedOnTheOther() throws Exception {
        AppInstance first = instances.get(0);
        AppInstance second = instances.get(1);
        String limitOnSecond = "/plans/limit/it-plans-exact/pro-override";
        assertThat(second.get(limitOnSecond)).isEqualTo("50");

        assertThat(first.status("PUT", "/plans/override/it-plans-exact?limit=3")).isEqualTo(204);
        long set = System.nanoTime();
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10))
                .until(() -> second.get(limitOnSecond).equals("3"));
        System.out.printf("Override seen by the second instance after %d ms%n", (System.nanoTime() - set) / 1_000_000);
        Map<Integer, Integer> statuses = fire("/plans/exact/pro-override", CALLS_PER_CALLER, PLAN_CALLERS);
        assertThat(statuses).containsEntry(200, 3).containsOnlyKeys(200, 429);

        try (AppInstance restarted = new AppInstance("third", redis.uri())) {
            assertThat(restarted.get("/plans/limit/it-plans-exact/pro-other")).isEqualTo("3");
        }

        assertThat(first.status("DELETE", "/plans/override/it-plans-exact")).isEqualTo(204);
        long cleared = System.nanoTime();
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10))
                .until(() -> second.get(limitOnSecond).equals("50"));
        System.out.printf("Clear seen by the second instance after %d ms%n",
                (System.nanoTime() - cleared) / 1_000_000);
        // The same window goes on under the plan's 50: 47 more.
        statuses = fire("/plans/exact/pro-override", CALLS_PER_CALLER, PLAN_CALLERS);
        assertThat(statuses).containsEntry(200, 47).containsOnlyKeys(200, 429);
        assertNoFallback();
    }

    private int holding() throws Exception {
        int sum = 0;
        for (AppInstance instance : instances) {
            sum += Integer.parseInt(instance.post("/exactness/concurrency-holding").trim());
        }
        return sum;
    }

    /** {@value #CALLERS} callers per instance, all released at once, each calling {@code calls} times. */
    private Map<Integer, Integer> fire(String path, int calls) throws Exception {
        return fire(path, calls, CALLERS);
    }

    /** {@code perInstance} callers per instance, all released at once, each calling {@code calls} times. */
    private Map<Integer, Integer> fire(String path, int calls, int perInstance) throws Exception {
        CountDownLatch ready = new CountDownLatch(perInstance * instances.size());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<Integer>>> results = new ArrayList<>();
        for (AppInstance instance : instances) {
            for (int i = 0; i < perInstance; i++) {
                results.add(callers.submit(() -> {
                    ready.countDown();
                    go.await();
                    List<Integer> statuses = new ArrayList<>(calls);
                    for (int call = 0; call < calls; call++) {
                        statuses.add(instance.status("POST", path));
                    }
                    return statuses;
                }));
            }
        }
        ready.await(60, TimeUnit.SECONDS);
        go.countDown();
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (Future<List<Integer>> result : results) {
            for (int status : result.get(180, TimeUnit.SECONDS)) {
                statuses.merge(status, 1, Integer::sum);
            }
        }
        return statuses;
    }

    private void assertNoFallback() throws Exception {
        for (AppInstance instance : instances) {
            assertThat(instance.fallbackDecisions()).as("fallback decisions").isZero();
        }
    }
}
