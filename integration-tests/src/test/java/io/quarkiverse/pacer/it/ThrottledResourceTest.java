package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
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
        String[] states = { "\"it-ping\";r=2;t=10", "\"it-ping\";r=1;t=20", "\"it-ping\";r=0;t=30" };
        for (String state : states) {
            given().get("/throttled/ping").then().statusCode(200).body(equalTo("pong"))
                    .header("RateLimit-Policy", equalTo("\"it-ping\";q=3;w=30"))
                    .header("RateLimit", equalTo(state));
        }
        Response rejected = given().get("/throttled/ping");
        rejected.then().statusCode(429)
                .contentType(startsWith("application/problem+json"))
                .header("Retry-After", equalTo("10"))
                .header("RateLimit-Policy", equalTo("\"it-ping\";q=3;w=30"))
                .header("RateLimit", equalTo("\"it-ping\";r=0;t=30"))
                .body("status", equalTo(429))
                .body("title", equalTo("Too Many Requests"))
                .body("retryAfterSeconds", equalTo(10))
                .body("policies[0].policy", equalTo("it-ping"));

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
        given().get("/throttled/stacked").then().statusCode(200)
                .header("RateLimit-Policy", equalTo("\"it-stack-outer\";q=100;w=3600, \"it-stack-inner\";q=1;w=3600"))
                .header("RateLimit", equalTo("\"it-stack-outer\";r=99;t=36, \"it-stack-inner\";r=0;t=3600"));
        given().get("/throttled/stacked").then().statusCode(429)
                .header("Retry-After", equalTo("3600"))
                .header("RateLimit-Policy", equalTo("\"it-stack-inner\";q=1;w=3600"))
                .header("RateLimit", equalTo("\"it-stack-inner\";r=0;t=3600"));
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
        given().get("/throttled/search?tenant=acme").then().statusCode(200).body(equalTo("results for acme"))
                .header("RateLimit-Policy", equalTo("\"it-search\";q=100;w=86400, \"it-search-burst\";q=2;w=60"))
                .header("RateLimit", startsWith("\"it-search\";r=99;t="))
                .header("RateLimit", containsString(", \"it-search-burst\";r=1;t=30"));
        given().get("/throttled/search?tenant=acme").then().statusCode(200);
        Response rejected = given().get("/throttled/search?tenant=acme");
        rejected.then().statusCode(429)
                .header("RateLimit-Policy", equalTo("\"it-search-burst\";q=2;w=60"))
                .header("RateLimit", equalTo("\"it-search-burst\";r=0;t=60"));
        // 2 per minute: one permit every 30 s.
        assertThat(Long.parseLong(rejected.header("Retry-After"))).isBetween(25L, 30L);
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
