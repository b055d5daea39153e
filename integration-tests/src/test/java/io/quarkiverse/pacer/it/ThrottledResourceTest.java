package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

@QuarkusTest
class ThrottledResourceTest {

    @Test
    void blockingEndpointAnswers429WithRateLimitHeaders() {
        for (int i = 0; i < 3; i++) {
            given().get("/throttled/ping").then().statusCode(200).body(equalTo("pong"));
        }
        Response rejected = given().get("/throttled/ping");
        rejected.then().statusCode(429)
                .contentType(startsWith("application/problem+json"))
                .header("RateLimit-Policy", equalTo("\"it-ping\";q=3;w=30"))
                .header("RateLimit", startsWith("\"it-ping\";r=0;t="))
                .body("status", equalTo(429))
                .body("title", equalTo("Too Many Requests"))
                .body("policies[0].policy", equalTo("it-ping"));
        // 3 per 30 s refill one permit every 10 s: at most 10 s, whole seconds rounded up.
        long retryAfter = Long.parseLong(rejected.header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 10L);

        // The demo's reset endpoint gives the global key its full capacity again.
        given().delete("/throttled/limits/it-ping").then().statusCode(204);
        for (int i = 0; i < 3; i++) {
            given().get("/throttled/ping").then().statusCode(200);
        }
        given().get("/throttled/ping").then().statusCode(429);
        given().delete("/throttled/limits/no-such-policy").then().statusCode(404)
                .body(containsString("Unknown throttling policy \"no-such-policy\""));
    }

    @Test
    void reactiveEndpointIsLimitedPerTenant() {
        given().get("/throttled/search?tenant=acme").then().statusCode(200).body(equalTo("results for acme"));
        given().get("/throttled/search?tenant=acme").then().statusCode(200);
        Response rejected = given().get("/throttled/search?tenant=acme");
        rejected.then().statusCode(429)
                .header("RateLimit-Policy", equalTo("\"it-search-burst\";q=2;w=60"));
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
    }
}
