package io.quarkiverse.pacer.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/** {@code quarkus.pacer.throttle.headers-on-success=false}: successes carry no RateLimit headers, a 429 still does. */
@QuarkusTest
@TestProfile(ThrottledResourceHeadersOnSuccessOffTest.HeadersOff.class)
class ThrottledResourceHeadersOnSuccessOffTest {

    public static class HeadersOff implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.pacer.throttle.headers-on-success", "false");
        }
    }

    @Test
    void onlyRejectionsCarryRateLimitHeaders() {
        RateLimitAssertions limits = RateLimitAssertions.startingNow();
        for (int i = 0; i < 2; i++) {
            given().get("/throttled/search?tenant=headers-off").then().statusCode(200)
                    .header("RateLimit-Policy", nullValue())
                    .header("RateLimit", nullValue());
        }
        Response rejected = given().get("/throttled/search?tenant=headers-off");
        rejected.then().statusCode(429)
                .header("RateLimit-Policy", equalTo("\"it-search-burst\";q=2;w=60"))
                .header("RateLimit", startsWith("\"it-search-burst\";"));
        limits.assertEntry(rejected.header("RateLimit"), "it-search-burst", 0, 60);
    }
}
