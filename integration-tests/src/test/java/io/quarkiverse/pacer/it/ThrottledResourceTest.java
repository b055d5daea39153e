package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

@QuarkusTest
class ThrottledResourceTest {

    /**
     * A token bucket of 3 per 30 s refills one permit every 10 s: {@code t} (until the bucket is full again) grows by
     * 10 s per permit taken, whole seconds rounded up; {@code Retry-After} is the time to the next permit.
     */
    @Test
    void blockingEndpointSendsRateLimitHeadersOnSuccessAndRejection() {
        RateLimitAssertions limits = RateLimitAssertions.startingNow();
        for (int taken = 1; taken <= 3; taken++) {
            Response admitted = given().get("/throttled/ping");
            admitted.then().statusCode(200).body(equalTo("pong"))
                    .header("RateLimit-Policy", equalTo("\"it-ping\";q=3;w=30"));
            limits.assertEntry(admitted.header("RateLimit"), "it-ping", 3 - taken, 10L * taken);
        }
        Response rejected = given().get("/throttled/ping");
        rejected.then().statusCode(429)
                .contentType(startsWith("application/problem+json"))
                .header("RateLimit-Policy", equalTo("\"it-ping\";q=3;w=30"))
                .body("status", equalTo(429))
                .body("title", equalTo("Too Many Requests"))
                .body("policies[0].policy", equalTo("it-ping"));
        limits.assertEntry(rejected.header("RateLimit"), "it-ping", 0, 30);
        limits.assertSeconds(Long.parseLong(rejected.header("Retry-After")), 10, "Retry-After");
        limits.assertSeconds(rejected.jsonPath().getLong("retryAfterSeconds"), 10, "retryAfterSeconds");

        // The demo's reset endpoint gives the global key its full capacity again.
        given().delete("/throttled/limits/it-ping").then().statusCode(204);
        for (int i = 0; i < 3; i++) {
            given().get("/throttled/ping").then().statusCode(200);
        }
        given().get("/throttled/ping").then().statusCode(429);
        given().delete("/throttled/limits/no-such-policy").then().statusCode(404)
                .body(containsString("Unknown throttling policy \"no-such-policy\""));
    }

    /** Stacked policies: a success lists every policy; a rejection lists the rejecting one. */
    @Test
    void stackedPoliciesHeaders() {
        RateLimitAssertions limits = RateLimitAssertions.startingNow();
        Response admitted = given().get("/throttled/stacked");
        admitted.then().statusCode(200)
                .header("RateLimit-Policy", equalTo("\"it-stack-outer\";q=100;w=3600, \"it-stack-inner\";q=1;w=3600"))
                .header("RateLimit", startsWith("\"it-stack-outer\";"))
                .header("RateLimit", containsString(", \"it-stack-inner\";"));
        limits.assertEntry(admitted.header("RateLimit"), "it-stack-outer", 99, 36);
        limits.assertEntry(admitted.header("RateLimit"), "it-stack-inner", 0, 3600);
        Response rejected = given().get("/throttled/stacked");
        rejected.then().statusCode(429)
                .header("RateLimit-Policy", equalTo("\"it-stack-inner\";q=1;w=3600"))
                .header("RateLimit", startsWith("\"it-stack-inner\";"))
                .header("RateLimit", not(containsString(",")));
        limits.assertEntry(rejected.header("RateLimit"), "it-stack-inner", 0, 3600);
        limits.assertSeconds(Long.parseLong(rejected.header("Retry-After")), 3600, "Retry-After");
    }

    /**
     * The outer policy admitted the call the inner one rejected, but took nothing: it counts no second "permitted"
     * decision (nor a rejection).
     */
    @Test
    void stackedRejectionCountsNoPermitForTheAdmittingPolicy() {
        given().get("/throttled/stacked-metered").then().statusCode(200);
        given().get("/throttled/stacked-metered").then().statusCode(429);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString(
                        "pacer_throttle_decisions_total{outcome=\"permitted\",policy=\"it-metered-outer\"} 1.0"))
                .body(containsString(
                        "pacer_throttle_decisions_total{outcome=\"rejected\",policy=\"it-metered-outer\"} 0.0"))
                .body(containsString(
                        "pacer_throttle_decisions_total{outcome=\"permitted\",policy=\"it-metered-inner\"} 1.0"))
                .body(containsString(
                        "pacer_throttle_decisions_total{outcome=\"rejected\",policy=\"it-metered-inner\"} 1.0"));
    }

    @Test
    void reactiveEndpointIsLimitedPerTenant() {
        // A reactive endpoint (decided on the event loop) sends the headers on success too.
        RateLimitAssertions limits = RateLimitAssertions.startingNow();
        Response first = given().get("/throttled/search?tenant=acme");
        first.then().statusCode(200).body(equalTo("results for acme"))
                .header("RateLimit-Policy", equalTo("\"it-search\";q=100;w=86400, \"it-search-burst\";q=2;w=60"))
                .header("RateLimit", startsWith("\"it-search\";r=99;t="));
        limits.assertEntry(first.header("RateLimit"), "it-search-burst", 1, 30);
        given().get("/throttled/search?tenant=acme").then().statusCode(200);
        Response rejected = given().get("/throttled/search?tenant=acme");
        rejected.then().statusCode(429)
                .header("RateLimit-Policy", equalTo("\"it-search-burst\";q=2;w=60"))
                .header("RateLimit", startsWith("\"it-search-burst\";"))
                .header("RateLimit", not(containsString(",")));
        limits.assertEntry(rejected.header("RateLimit"), "it-search-burst", 0, 60);
        // 2 per minute: one permit every 30 s.
        limits.assertSeconds(Long.parseLong(rejected.header("Retry-After")), 30, "Retry-After");
        given().get("/throttled/search?tenant=other").then().statusCode(200);
    }

    @Test
    void clientAddressKey() {
        given().get("/throttled/client").then().statusCode(200);
        given().get("/throttled/client").then().statusCode(429);
    }

    @Test
    void decisionsAreCountedInMicrometer() {
        given().get("/throttled/metered").then().statusCode(200);
        given().get("/throttled/metered").then().statusCode(429);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("pacer_throttle_decisions_total{outcome=\"permitted\",policy=\"it-metered\"} 1.0"))
                .body(containsString("pacer_throttle_decisions_total{outcome=\"rejected\",policy=\"it-metered\"} 1.0"))
                .body(containsString("pacer_throttle_decision_latency_seconds_count{policy=\"it-metered\"} 2"));
        // Once subscribed to resets, this instance answers the rejected key itself, counted apart.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            given().get("/throttled/metered").then().statusCode(429);
            given().get("/q/metrics").then().statusCode(200).body(containsString(
                    "pacer_throttle_decisions_total{outcome=\"rejected-locally\",policy=\"it-metered\"} 1.0"));
        });
    }
}
