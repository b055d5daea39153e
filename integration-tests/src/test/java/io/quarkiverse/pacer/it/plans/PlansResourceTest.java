package io.quarkiverse.pacer.it.plans;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The "per plan" demo: two tenants on different plans, each with its own limit and headers, and a runtime override.
 */
@QuarkusTest
class PlansResourceTest {

    @Test
    void eachTenantGetsItsPlansLimit() {
        for (int i = 0; i < 5; i++) {
            given().when().get("/plans/free-acme/report").then().statusCode(200)
                    .header("RateLimit-Policy", "\"it-plans\";q=5;w=60")
                    .header("RateLimit", containsString(";r=" + (4 - i) + ";"));
        }
        given().when().get("/plans/free-acme/report").then().statusCode(429)
                .header("RateLimit-Policy", "\"it-plans\";q=5;w=60");
        given().when().get("/plans/pro-globex/report").then().statusCode(200)
                .header("RateLimit-Policy", "\"it-plans\";q=50;w=60")
                .header("RateLimit", containsString(";r=49;"));
    }

    @Test
    void overrideAppliesToEveryTenantUntilCleared() {
        given().when().put("/plans/override/it-plans?limit=2").then().statusCode(204);
        try {
            given().when().get("/plans/limit/it-plans/pro-initech").then().statusCode(200).body(equalTo("2"));
            given().when().get("/plans/pro-initech/report").then().statusCode(200);
            given().when().get("/plans/pro-initech/report").then().statusCode(200);
            given().when().get("/plans/pro-initech/report").then().statusCode(429);
        } finally {
            given().when().delete("/plans/override/it-plans").then().statusCode(204);
        }
        given().when().get("/plans/limit/it-plans/pro-initech").then().statusCode(200).body(equalTo("50"));
        given().when().put("/plans/override/unknown?limit=2").then().statusCode(400)
                .body(containsString("Unknown throttling policy \"unknown\""));
    }
}
