package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * REST endpoints whose key the request carries (parameters, a {@code RequestKeyResolver}, the principal) are decided
 * before their method is dispatched: a rejected request never reaches the method nor a worker thread, and gets the
 * same answer and headers as the same limit decided by the interceptor on a CDI bean.
 */
@QuarkusTest
class ThrottledEndpointsTest {

    private static final String WORKER = "executor-thread-";
    private static final String EVENT_LOOP = "vert.x-eventloop-thread-";
    /** The demo's password for every user name. */
    private static final String PASSWORD = "pacer-demo";

    @BeforeEach
    void clearProbe() {
        given().delete("/endpoints/probe").then().statusCode(204);
    }

    @Test
    void rejectedBlockingCallReachesNeitherTheMethodNorAWorker() {
        String user = unique();
        for (int i = 0; i < 2; i++) {
            given().get("/endpoints/blocking/" + user).then().statusCode(200);
        }
        for (int i = 0; i < 3; i++) {
            given().get("/endpoints/blocking/" + user).then().statusCode(429);
        }
        Map<String, String> probe = probe();
        assertThat(probe).containsOnlyKeys("blocking-method", "worker-filter", "response-200", "response-429");
        assertRan(probe, "blocking-method", 2, WORKER);
        // The blocking request filter runs on the worker after the hand-off: only the two admitted requests got there.
        assertRan(probe, "worker-filter", 2, WORKER);
        assertRan(probe, "response-200", 2, WORKER);
        assertRan(probe, "response-429", 3, EVENT_LOOP);
    }

    @Test
    void sameDecisionsAndHeadersAsTheInterceptor() {
        String user = unique();
        assertSameAnswers(RestAssured::given, "/endpoints/blocking/" + user, "/endpoints/bean/" + user, "it-endpoint");
        Map<String, String> probe = probe();
        assertRan(probe, "blocking-method", 2, WORKER);
        // The bean's endpoint itself ran every time: its limit is decided inside, by the interceptor.
        assertRan(probe, "bean-endpoint", 4, WORKER);
        assertRan(probe, "response-429", 4, "");
    }

    @Test
    void principalKeyIsDecidedBeforeTheWorkerAsByTheInterceptor() {
        String user = unique();
        assertSameAnswers(() -> asUser(user), "/endpoints/principal", "/endpoints/bean-principal",
                "it-endpoint-principal");
        asUser(user).get("/endpoints/principal").then().statusCode(429);
        // Another user has their own limit; the method sees the same principal.
        String other = unique();
        asUser(other).get("/endpoints/principal").then().statusCode(200).body(is("hello " + other));
        // Rejected credentials fail authentication in the filter: no permit, no method, no worker.
        given().auth().preemptive().basic(user, "wrong").get("/endpoints/principal").then().statusCode(401);
        Map<String, String> probe = probe();
        assertRan(probe, "principal-method", 3, WORKER);
        assertRan(probe, "worker-filter", 3, WORKER);
        assertRan(probe, "bean-principal-endpoint", 4, WORKER);
        // The last rejection was the endpoint's own, answered from the event loop.
        assertRan(probe, "response-429", 5, EVENT_LOOP);
    }

    @Test
    void requestKeyResolverIsDecidedBeforeTheWorkerAsByTheInterceptor() {
        String apiKey = unique();
        assertSameAnswers(() -> given().header("X-Api-Key", apiKey), "/endpoints/api-key", "/endpoints/bean-api-key",
                "it-endpoint-api-key");
        given().header("X-Api-Key", apiKey).get("/endpoints/api-key").then().statusCode(429);
        given().header("X-Api-Key", unique()).get("/endpoints/api-key").then().statusCode(200);
        Map<String, String> probe = probe();
        assertRan(probe, "api-key-method", 3, WORKER);
        assertRan(probe, "worker-filter", 3, WORKER);
        assertRan(probe, "bean-api-key-endpoint", 4, WORKER);
        assertRan(probe, "response-429", 5, EVENT_LOOP);
    }

    /**
     * {@code onLimit = WAIT} on an endpoint decided in its filter waits for the next permit and then passes, as the
     * same limit on a bean does in the interceptor: two calls in a row both answer 200, the second once the next permit
     * is due (one per 600 ms, counted from the first call's decision), and the method runs on a worker each time.
     */
    @Test
    void waitingEndpointWaitsAsTheInterceptor() {
        String user = unique();
        for (String path : List.of("/endpoints/waiting/", "/endpoints/bean-waiting/")) {
            long start = System.nanoTime();
            given().get(path + user).then().statusCode(200).body(is("hello " + user));
            given().get(path + user).then().statusCode(200).body(is("hello " + user));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // The second permit is due 600 ms after the first decision (Redis's clock; a little slack for the JVM's).
            assertThat(millis).as("%s: two calls took %d ms", path, millis).isGreaterThanOrEqualTo(550);
        }
        Map<String, String> probe = probe();
        assertRan(probe, "waiting-method", 2, WORKER);
        assertRan(probe, "bean-waiting-endpoint", 2, WORKER);
    }

    /**
     * Four calls of an endpoint decided in its filter and of an endpoint calling a bean with the same limit (2 an
     * hour, token bucket) decided by the interceptor: same statuses, headers and bodies.
     */
    private static void assertSameAnswers(Supplier<RequestSpecification> request, String endpointPath, String beanPath,
            String policy) {
        RateLimitAssertions limits = RateLimitAssertions.startingNow();
        for (int call = 1; call <= 4; call++) {
            Response endpoint = request.get().get(endpointPath);
            Response bean = request.get().get(beanPath);
            assertThat(endpoint.statusCode()).as("call %d", call).isEqualTo(bean.statusCode())
                    .isEqualTo(call <= 2 ? 200 : 429);
            assertThat(endpoint.header("RateLimit-Policy")).as("call %d", call)
                    .isEqualTo(bean.header("RateLimit-Policy").replace(policy + "-bean", policy))
                    .isEqualTo("\"" + policy + "\";q=2;w=3600");
            // A token bucket of 2 an hour: one permit per 1,800 s.
            long remaining = Math.max(0, 2 - call);
            long full = 1800 * (2 - remaining);
            limits.assertEntry(endpoint.header("RateLimit"), policy, remaining, full);
            limits.assertEntry(bean.header("RateLimit"), policy + "-bean", remaining, full);
            if (call > 2) {
                assertThat(endpoint.contentType()).isEqualTo(bean.contentType()).startsWith("application/problem+json");
                limits.assertSeconds(Long.parseLong(endpoint.header("Retry-After")), 1800, "Retry-After");
                limits.assertSeconds(Long.parseLong(bean.header("Retry-After")), 1800, "Retry-After");
                assertThat(endpoint.jsonPath().getString("title")).isEqualTo(bean.jsonPath().getString("title"));
                assertThat(endpoint.jsonPath().getInt("policies[0].limit")).isEqualTo(2);
                assertThat(endpoint.jsonPath().getInt("policies[0].remaining"))
                        .isEqualTo(bean.jsonPath().getInt("policies[0].remaining"));
            }
        }
    }

    private static RequestSpecification asUser(String user) {
        return given().auth().preemptive().basic(user, PASSWORD);
    }

    @Test
    void reactiveStackedEndpointRejectsOnTheEventLoop() {
        String tenant = unique();
        RateLimitAssertions limits = RateLimitAssertions.startingNow();
        Response admitted = given().header("X-Tenant", tenant).get("/endpoints/reactive");
        admitted.then().statusCode(200);
        assertThat(admitted.asString()).isEqualTo("results for " + tenant);
        assertThat(admitted.header("RateLimit-Policy"))
                .isEqualTo("\"it-endpoint-daily\";q=100;w=86400, \"it-endpoint-minute\";q=1;w=60");
        limits.assertEntry(admitted.header("RateLimit"), "it-endpoint-minute", 0, 60);
        Response rejected = given().header("X-Tenant", tenant).get("/endpoints/reactive");
        rejected.then().statusCode(429);
        assertThat(rejected.header("RateLimit-Policy")).isEqualTo("\"it-endpoint-minute\";q=1;w=60");
        limits.assertSeconds(Long.parseLong(rejected.header("Retry-After")), 60, "Retry-After");
        // Another tenant has its own limit.
        given().header("X-Tenant", unique()).get("/endpoints/reactive").then().statusCode(200);
        Map<String, String> probe = probe();
        assertRan(probe, "reactive-method", 2, EVENT_LOOP);
        assertRan(probe, "response-429", 1, EVENT_LOOP);
    }

    @Test
    void concurrencyLeaseEndsWithTheResponseAndOnFailure() {
        String user = unique();
        for (int i = 0; i < 3; i++) {
            // Released once the response is written, well within the lease's minute: the next call is admitted.
            await().atMost(Duration.ofSeconds(20)).until(() -> given().get("/endpoints/leased/" + user).statusCode() == 200);
        }
        for (int i = 0; i < 2; i++) {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> given().queryParam("fail", true).get("/endpoints/leased/" + user).statusCode() == 500);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> given().get("/endpoints/leased/" + user).statusCode() == 200);
        Map<String, String> probe = probe();
        assertRan(probe, "response-200", 4, WORKER);
        // Four successes and two failures: each admitted call ran the method once.
        assertRan(probe, "leased-method", 6, WORKER);
    }

    private static String unique() {
        return "u" + UUID.randomUUID();
    }

    private static Map<String, String> probe() {
        Map<String, String> probe = new TreeMap<>();
        for (String line : given().get("/endpoints/probe").then().statusCode(200).extract().asString().split("\n")) {
            if (!line.isBlank()) {
                probe.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
            }
        }
        return probe;
    }

    private static void assertRan(Map<String, String> probe, String what, int times, String threadPrefix) {
        assertThat(probe).containsKey(what);
        String[] countAndThread = probe.get(what).split("@", 2);
        assertThat(Integer.parseInt(countAndThread[0])).as("%s in %s", what, probe).isEqualTo(times);
        assertThat(countAndThread[1]).as("the thread of %s in %s", what, probe).startsWith(threadPrefix);
    }
}
