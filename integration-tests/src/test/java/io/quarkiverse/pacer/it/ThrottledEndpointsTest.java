package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * REST endpoints whose key the request carries are decided before their method is dispatched: a rejected request never
 * reaches the method nor a worker thread, and gets the same answer and headers as the same limit decided by the
 * interceptor on a CDI bean.
 */
@QuarkusTest
class ThrottledEndpointsTest {

    private static final String WORKER = "executor-thread-";
    private static final String EVENT_LOOP = "vert.x-eventloop-thread-";

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
        RateLimitAssertions limits = RateLimitAssertions.startingNow();
        for (int call = 1; call <= 4; call++) {
            Response endpoint = given().get("/endpoints/blocking/" + user);
            Response bean = given().get("/endpoints/bean/" + user);
            assertThat(endpoint.statusCode()).as("call %d", call).isEqualTo(bean.statusCode())
                    .isEqualTo(call <= 2 ? 200 : 429);
            assertThat(endpoint.header("RateLimit-Policy")).as("call %d", call)
                    .isEqualTo(bean.header("RateLimit-Policy").replace("it-endpoint-bean", "it-endpoint"))
                    .isEqualTo("\"it-endpoint\";q=2;w=3600");
            // A token bucket of 2 an hour: one permit per 1,800 s.
            long remaining = Math.max(0, 2 - call);
            long full = 1800 * (2 - remaining);
            limits.assertEntry(endpoint.header("RateLimit"), "it-endpoint", remaining, full);
            limits.assertEntry(bean.header("RateLimit"), "it-endpoint-bean", remaining, full);
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
        Map<String, String> probe = probe();
        assertRan(probe, "blocking-method", 2, WORKER);
        // The bean's endpoint itself ran every time: its limit is decided inside, by the interceptor.
        assertRan(probe, "bean-endpoint", 4, WORKER);
        assertRan(probe, "response-429", 4, "");
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
